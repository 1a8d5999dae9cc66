from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web pages"

    def ready(self) -> None:
        # Every process that writes events (web, workers) tells the open
        # pages where the game stands, once the event is durable.
        from games import hooks
        from web import push

        hooks.on_committed(push.publish_committed)
