from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import credentials, signals

        signals.password_changed.connect(
            credentials.end_tokens_on_new_password, dispatch_uid="correo-tokens-end"
        )
