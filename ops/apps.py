"""Operations wiring: the Celery log context and the embedded default's
in-process services, once Django is ready."""

from __future__ import annotations

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    label = "ops"
    verbose_name = "Correo operations"

    def ready(self) -> None:
        import logging

        from celery import signals
        from django.core.signals import request_finished

        from ops import logging as correo_logging

        logging.captureWarnings(True)  # Python warnings become JSON lines too
        signals.task_prerun.connect(correo_logging.bind_task_context, weak=False)
        signals.task_postrun.connect(correo_logging.clear_context, weak=False)
        request_finished.connect(correo_logging.clear_context, weak=False)

        from ops import embedded

        if embedded.serving_embedded():
            embedded.start()
