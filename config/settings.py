"""Settings, entirely from the environment, with safe development defaults.

The embedded default needs no services: SQLite in var/, Celery tasks run
eagerly in-process, mail is written to var/mail/.  Setting DATABASE_URL,
REDIS_URL and EMAIL_URL switches to the real services.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from ops.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("CORREO_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()

# Shipped in the repository on purpose: it marks a development server.  The
# check below refuses to run with it once DEBUG is off.
DEVELOPMENT_SECRET_KEY = "correo-development-secret-key-do-not-use-in-production"

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)


def check_secret_key(debug: bool, secret_key: str) -> None:
    if not debug and secret_key == DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured(
            "Refusing to start: DJANGO_DEBUG is off but SECRET_KEY is the development key. "
            "Set SECRET_KEY to a long random value."
        )


check_secret_key(DEBUG, SECRET_KEY)

# The event chain's seals (games.stream.chain) are keyed by secrets that live here,
# outside the database, so rewriting rows cannot forge them.  Rotating: set
# CHAIN_KEY to the new key and add the old one to CHAIN_KEYS_RETIRED; events
# keep the id of the key that sealed them.  Like SECRET_KEY, the development
# key is refused once DEBUG is off.
DEVELOPMENT_CHAIN_KEY = "correo-development-chain-key-do-not-use-in-production"
CHAIN_KEY = env.str("CHAIN_KEY", default=DEVELOPMENT_CHAIN_KEY)
CHAIN_KEYS_RETIRED = env.list("CHAIN_KEYS_RETIRED", default=[])
# Checkpoints (games.audit.checkpoints): signed with a key derived from
# CHAIN_KEY unless CHECKPOINT_KEY (64 hex digits, an Ed25519 seed) is set;
# written, one JSON line each, to CHECKPOINT_LOG before the database has them
# (an append-only file the operator keeps off the database's host: mounted
# object storage, a log shipper's input); empty: the database and its feed only.
CHECKPOINT_KEY = env.str("CHECKPOINT_KEY", default="")
CHECKPOINT_LOG = env.str("CHECKPOINT_LOG", default="")
# How often every game that moved since its last checkpoint gets a new one.
CHECKPOINT_INTERVAL = env.float("CHECKPOINT_INTERVAL", default=3600.0)
# The feed holds back its newest checkpoints this long (games.audit.checkpoint_feed).
CHECKPOINT_FEED_HOLD_SECONDS = env.float("CHECKPOINT_FEED_HOLD_SECONDS", default=60.0)


def check_chain_key(debug: bool, chain_key: str) -> None:
    if not debug and (chain_key == DEVELOPMENT_CHAIN_KEY or len(chain_key) < 32):
        raise ImproperlyConfigured(
            "Refusing to start: DJANGO_DEBUG is off but CHAIN_KEY is the development key "
            "or shorter than 32 characters. Set CHAIN_KEY to a long random value and keep "
            "it out of the database and its backups."
        )


check_chain_key(DEBUG, CHAIN_KEY)


def check_checkpoint_key(checkpoint_key: str) -> None:
    if checkpoint_key and not re.fullmatch(r"[0-9a-fA-F]{64}", checkpoint_key):
        raise ImproperlyConfigured(
            "Refusing to start: CHECKPOINT_KEY must be 64 hex digits (a 32-byte Ed25519 "
            "seed), or unset to derive the key from CHAIN_KEY."
        )


check_checkpoint_key(CHECKPOINT_KEY)

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First: its registration/ templates (the password pages) must win over
    # the admin's, which would otherwise draw them in the admin's dress.
    "web",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    # Not rest_framework.authtoken: accounts.ApiToken holds the API tokens
    # (several per account, hashed, expiring); migration accounts/0006 took
    # over the keys its table held.
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "ratings",  # ratings per title, derived from the finished games' streams
    "tournaments",  # rounds of tables of one title, standings from the results
    "notifications",
    "boards",  # the boards in SVG, for the pages and the mails alike
    "django_htmx",
    "ops.apps.OpsConfig",  # log context for Celery tasks, the embedded default's services
]

MIDDLEWARE = [
    "ops.logging.RequestContextMiddleware",  # request id, game id, access line
    # The broker's publish waits until the answer is written.
    "ops.after_response.PublishAfterResponseMiddleware",
    "ops.metrics.MetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "web.middleware.DatabaseUnavailableMiddleware",
    "web.throttle.LockedOutMiddleware",  # an account's log-ins waiting: 429
    "web.middleware.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # config/ is no app: the API docs' page template (config.docs) is
        # found through DIRS, every app's own through APP_DIRS.
        "DIRS": [BASE_DIR / "config" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for the writer instead of failing at once when two requests overlap.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("timeout", 20)
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Opening a PostgreSQL connection costs more than a whole request: keep them.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
# A health check costs every request a round trip (a third of a game read).
# Without it, the first request on a connection the database dropped gets a
# 503 "try again" (games.api.errors) and the connection is replaced.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=False)
# The hot statements (games.stream.sql) are prepared once per connection.  Behind
# PgBouncer in transaction mode that needs PgBouncer 1.21+ with
# max_prepared_statements set; otherwise turn this off.
CORREO_PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=True)
if CORREO_PREPARED_STATEMENTS and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Django turns psycopg's preparing off (None); any number turns it back on
    # for the cursors that ask for it.  The ORM's client-side cursors never do.
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2**31 - 1
# QuerySet.iterator() reads through a server-side cursor, which outlives the
# transaction that declared it.  Behind a pooler in transaction mode (PgBouncer)
# the next FETCH may reach another server connection, where the cursor does not
# exist: turn them off there (Django then reads the rows client-side).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = not env.bool(
    "DB_SERVER_SIDE_CURSORS", default=True
)
# Lets two test runs share one PostgreSQL server (default: test_<name>).
if env.str("TEST_DATABASE_NAME", default=""):
    DATABASES["default"]["TEST"] = {"NAME": env.str("TEST_DATABASE_NAME")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# Django's, refusing suspended accounts as it refuses inactive ones.
AUTHENTICATION_BACKENDS = ["accounts.backends.CorreoBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# The languages a player may choose for their mail; the catalogs live in
# locale/<code>/LC_MESSAGES/django.po, compiled to django.mo and committed.
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.str("STATIC_ROOT", default=str(VAR_DIR / "static"))
# whitenoise serves the static files from the app server. Without a
# collectstatic run (make run, the tests) it finds them in the apps, as
# runserver would; a deployment runs collectstatic and gets hashed names with
# far-future caching.
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=True)
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env.str(
            "STATICFILES_STORAGE",
            default="django.contrib.staticfiles.storage.StaticFilesStorage",
        )
    },
}

# The web pages: Django's own auth views under /accounts/.
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Requests larger than this are refused before a view sees them.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1_000_000)
# JSON bodies nested deeper than this are refused before they are decoded
# (ops/parsers.py); the deepest body a client sends today has 3 levels.
CORREO_JSON_MAX_DEPTH = env.int("CORREO_JSON_MAX_DEPTH", default=32)
# A game export posted to /api/games/import/ (games.audit.exchange): a whole game
# of The Estates for five is half a megabyte, a long 18Cuba game a few.
CORREO_IMPORT_MAX_BYTES = env.int("CORREO_IMPORT_MAX_BYTES", default=16_000_000)

# How many proxies stand in front of gunicorn, each appending to
# X-Forwarded-For: 0 when clients reach it directly (`make run`), 1 behind
# deploy/nginx.  The client is the entry that many places from the right
# (ops.clients); DRF is told the same.  Too high, and a client picks its
# own address; too low, and every client shares the proxy's.
CORREO_TRUSTED_PROXIES = env.int("CORREO_TRUSTED_PROXIES", default=0)

REST_FRAMEWORK = {
    "NUM_PROXIES": CORREO_TRUSTED_PROXIES,
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's parsers, refusing bodies no field can hold (ops/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "ops.parsers.JSONParser",
        "ops.parsers.FormParser",
        "ops.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "games.api.errors.api_exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "ops.throttling.AnonRateThrottle",
        "ops.throttling.UserRateThrottle",
    ],
    # Cache-backed (Redis when configured), so limits hold across workers.
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="120/min"),
        "user": env.str("THROTTLE_USER", default="1200/min"),
        "auth": env.str("THROTTLE_AUTH", default="30/min"),
        # The password change form, per user: a stolen session must not
        # become a way to try passwords (web.throttle).
        "password": env.str("THROTTLE_PASSWORD", default="10/hour"),
        # Starting a game, per account, the API and the web form together
        # (ops.throttling.CreateRateThrottle).
        "create": env.str("THROTTLE_CREATE", default="30/hour"),
        # Messages at a table, per account whatever the door (games.services.talk).
        "talk": env.str("THROTTLE_TALK", default="20/min"),
    },
}

# Failed log-ins per account, whatever the address (accounts.lockout): after
# this many, each further try waits a delay that doubles with every failure,
# up to the longest; a success, or a password set from a reset mail, starts
# again, and failures are forgotten after a quiet day.  The same counts hold
# for password-reset requests per address.
CORREO_LOGIN_FAILURES_ALLOWED = env.int("CORREO_LOGIN_FAILURES_ALLOWED", default=5)
CORREO_LOGIN_DELAY_SECONDS = env.int("CORREO_LOGIN_DELAY_SECONDS", default=30)
CORREO_LOGIN_DELAY_MAX_SECONDS = env.int("CORREO_LOGIN_DELAY_MAX_SECONDS", default=900)
CORREO_LOGIN_FAILURES_KEPT_SECONDS = env.int("CORREO_LOGIN_FAILURES_KEPT_SECONDS", default=86400)
SPECTACULAR_SETTINGS = {
    # Swagger UI from our own static files (drf-spectacular-sidecar), so the
    # docs page works without internet and its version is the one installed
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # ReDoc's default fonts come from Google; the system's need no request
    "REDOC_UI_SETTINGS": {
        "theme": {
            "typography": {
                "fontFamily": "system-ui, sans-serif",
                "headings": {"fontFamily": "system-ui, sans-serif"},
            }
        }
    },
    "TITLE": "Correo API",
    "DESCRIPTION": "Asynchronous board games: REST, web and play-by-email.",
    "VERSION": "0.1.0",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.add_error_responses",
    ],
}


def _redis_lane(url: str) -> str:
    """The test suite runs in several processes at once (pytest-xdist), and
    pytest-django gives each its own PostgreSQL database; each also takes its
    own Redis database, the configured one plus the worker's number, so one
    process's cache.clear() or counters never meet another's.  The processes
    a test starts inherit the result in REDIS_URL and are not moved again."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker.startswith("gw") or os.environ.get("CORREO_REDIS_LANE") == worker:
        return url
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + int(worker[2:])
    if database > 15:
        raise ImproperlyConfigured(f"no Redis database {database} for test worker {worker}")
    url = urlunsplit(parts._replace(path=f"/{database}"))
    os.environ["REDIS_URL"], os.environ["CORREO_REDIS_LANE"] = url, worker
    return url


# Redis is both broker and cache when configured; without it tasks run eagerly.
REDIS_URL = _redis_lane(env.str("REDIS_URL", default=""))
# CELERY_BROKER_URL=amqp://... puts Celery on RabbitMQ; Redis stays the cache.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_TASK_ACKS_LATE = True
CELERY_TIMEZONE = "UTC"
# Periodic tasks (celery beat); each app adds its own entries below.
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": env.float("CORREO_SWEEP_INTERVAL", default=60.0),
    },
    # A bot whose move was not queued (the broker was down) moves after all.
    "sweep-bots": {
        "task": "games.tasks.sweep_bots",
        "schedule": env.float("CORREO_SWEEP_INTERVAL", default=60.0),
    },
    "publish-checkpoints": {
        "task": "games.tasks.publish_checkpoints",
        "schedule": CHECKPOINT_INTERVAL,
    },
}

# Neither a move nor a read needs Redis (ops.outage): every socket to it
# has a timeout, and after a failure each process leaves it alone for a while,
# serving the cache from its own memory and leaving mail in the outbox.
CORREO_REDIS_TIMEOUT = env.float("CORREO_REDIS_TIMEOUT", default=1.0)
CORREO_REDIS_RETRY_SECONDS = env.float("CORREO_REDIS_RETRY_SECONDS", default=10.0)
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # Without a read timeout a publish to a Redis that accepts connections but
    # no longer answers waits forever.  A worker's BRPOP is answered after 1 s.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": CORREO_REDIS_TIMEOUT,
        "socket_timeout": CORREO_REDIS_TIMEOUT + 1,
    }

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "ops.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": CORREO_REDIS_TIMEOUT,
                "socket_timeout": CORREO_REDIS_TIMEOUT,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

EMAIL_URL = env.str("EMAIL_URL", default="")
if EMAIL_URL:
    globals().update(env.email_url_config(EMAIL_URL))
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Correo <correo@localhost>")
REPLY_DOMAIN = env.str("REPLY_DOMAIN", default="localhost")
INBOUND_EMAIL_SECRET = env.str("INBOUND_EMAIL_SECRET", default="")
# Play by email (notifications/): links in mails, limits of inbound mail and
# of automatic answers, outbox delivery retries and the sweep.
CORREO_BASE_URL = env.str("CORREO_BASE_URL", default="http://127.0.0.1:8000")
# Unset, the default above is a guess: a start-up warning says so
# (notifications/checks.py); `make run` sets it from PORT.
CORREO_BASE_URL_GIVEN = bool(env.str("CORREO_BASE_URL", default=""))
# Turn mails carry the seat's board as an inline PNG (resvg); off: words only.
NOTIFICATIONS_BOARD_IMAGE = env.bool("NOTIFICATIONS_BOARD_IMAGE", default=True)
NOTIFICATIONS_INBOUND_MAX_BYTES = env.int("NOTIFICATIONS_INBOUND_MAX_BYTES", default=2_000_000)
NOTIFICATIONS_ERROR_REPLIES_PER_HOUR = env.int("NOTIFICATIONS_ERROR_REPLIES_PER_HOUR", default=20)
NOTIFICATIONS_REJECTIONS_PER_HOUR = env.int("NOTIFICATIONS_REJECTIONS_PER_HOUR", default=3)
NOTIFICATIONS_MAX_ATTEMPTS = env.int("NOTIFICATIONS_MAX_ATTEMPTS", default=8)
NOTIFICATIONS_RETRY_BASE = env.int("NOTIFICATIONS_RETRY_BASE", default=30)
NOTIFICATIONS_CLAIM_LEASE = env.int("NOTIFICATIONS_CLAIM_LEASE", default=300)
# How long a worker keeps trying to record a sent mail across a lost database
# connection (keep it well under the lease: past it the mail goes out again).
NOTIFICATIONS_MARK_RETRY_SECONDS = env.float("NOTIFICATIONS_MARK_RETRY_SECONDS", default=60.0)
NOTIFICATIONS_SWEEP_GRACE = env.int("NOTIFICATIONS_SWEEP_GRACE", default=30)
NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE = env.bool("NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE", False)
# Webhooks (notifications.webhooks): one deadline for a whole POST (resolving,
# connecting, sending, the answer); a queue of their own, which a worker of
# its own consumes, so that no mail waits behind a slow hook (deploy/README.md);
# a hook that fails this many times in a row is paused until its owner saves it.
CORREO_WEBHOOK_DEADLINE_SECONDS = env.float("CORREO_WEBHOOK_DEADLINE_SECONDS", default=10.0)
CORREO_WEBHOOK_QUEUE = env.str("CORREO_WEBHOOK_QUEUE", default="webhooks")
CORREO_WEBHOOK_FAILURES_TO_PAUSE = env.int("CORREO_WEBHOOK_FAILURES_TO_PAUSE", default=10)
NOTIFICATIONS_DIGEST_HOUR = env.int("NOTIFICATIONS_DIGEST_HOUR", default=7)
# A Celery queue of its own for mail delivery (empty: the default queue).
NOTIFICATIONS_QUEUE = env.str("NOTIFICATIONS_QUEUE", default="")
NOTIFICATIONS_TASK_EXPIRES = env.int("NOTIFICATIONS_TASK_EXPIRES", default=600)
# How often beat sweeps the outbox and the webhook notices: the longest a mail
# waits (beyond NOTIFICATIONS_SWEEP_GRACE) once the broker that lost it is back.
NOTIFICATIONS_SWEEP_INTERVAL = env.float("NOTIFICATIONS_SWEEP_INTERVAL", default=60.0)
CELERY_BEAT_SCHEDULE["notifications-sweep-outbox"] = {
    "task": "notifications.sweep_outbox",
    "schedule": NOTIFICATIONS_SWEEP_INTERVAL,
}
# Webhook notices that were never queued (the broker was down) or whose worker died.
CELERY_BEAT_SCHEDULE["notifications-sweep-webhooks"] = {
    "task": "notifications.sweep_webhooks",
    "schedule": NOTIFICATIONS_SWEEP_INTERVAL,
}
CELERY_BEAT_SCHEDULE["notifications-send-digests"] = {
    "task": "notifications.send_digests",
    "schedule": crontab(minute=0, hour=NOTIFICATIONS_DIGEST_HOUR),
}
# django-anymail's inbound webhooks (/anymail/<esp>/inbound/) share the parser.
INSTALLED_APPS += ["anymail"]
ANYMAIL = {"WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default="")}

# Game store: a snapshot of engine state every N events (a cache, never needed
# for correctness).
CORREO_SNAPSHOT_EVERY = env.int("CORREO_SNAPSHOT_EVERY", default=20)
# Older snapshots only help an undo far back; a full replay serves that too.
CORREO_SNAPSHOTS_KEPT = env.int("CORREO_SNAPSHOTS_KEPT", default=5)
# Clocks: vacation budget per player and year, its shortest allowed length,
# and how long the sweep may be silent before it counts as an outage.
CORREO_VACATION_DAYS_PER_YEAR = env.int("CORREO_VACATION_DAYS_PER_YEAR", default=30)
CORREO_VACATION_MIN_DAYS = env.int("CORREO_VACATION_MIN_DAYS", default=1)
CORREO_OUTAGE_AFTER_SECONDS = env.int("CORREO_OUTAGE_AFTER_SECONDS", default=300)
CORREO_SWEEP_BATCH = env.int("CORREO_SWEEP_BATCH", default=5000)
# Claimed games per timeout task (one broker message each).
CORREO_TIMEOUT_BATCH = env.int("CORREO_TIMEOUT_BATCH", default=50)
# A seat whose timeout raised (a bug) is tried again this much later, not
# every minute; the game is flagged for a moderator meanwhile.
CORREO_TIMEOUT_RETRY_SECONDS = env.int("CORREO_TIMEOUT_RETRY_SECONDS", default=3600)
# Without a broker (the embedded default) `manage.py runserver` sweeps itself.
CORREO_EMBEDDED_SWEEP = env.bool("CORREO_EMBEDDED_SWEEP", default=not REDIS_URL)

# Bots (games.tasks.queue_bot): a bot moves no sooner than this after the move it
# answers, so that people at the table can follow; its tasks go to this queue
# ("": Celery's default).
CORREO_BOT_PACE_SECONDS = env.float("CORREO_BOT_PACE_SECONDS", default=5.0)
CORREO_BOT_QUEUE = env.str("CORREO_BOT_QUEUE", default="")

# Titles outside games.engines ("module:attribute" of an engine object), e.g.
# the test suite's small engine for worker processes started by the tests.
CORREO_EXTRA_ENGINES = env.list("CORREO_EXTRA_ENGINES", default=[])

# A token seen this recently is not looked up again (revocation takes this long).
CORREO_TOKEN_CACHE_SECONDS = env.int("CORREO_TOKEN_CACHE_SECONDS", default=10)
# An API token not used for this many days expires (each use renews it).
CORREO_TOKEN_TTL_DAYS = env.int("CORREO_TOKEN_TTL_DAYS", default=90)
if CORREO_TOKEN_TTL_DAYS < 1:
    raise ImproperlyConfigured("CORREO_TOKEN_TTL_DAYS must be at least 1 (days)")

# Running games one account may have started at once (moderators: no limit).
# Every game listed costs each other user nothing more (games.stream.spectators),
# but a flood of them still crowds the lists and the sweep.
CORREO_MAX_ACTIVE_GAMES = env.int("CORREO_MAX_ACTIVE_GAMES", default=100)

# Tables (games being gathered): a waiting table nobody joins for this many
# days expires (its players are told); an account may sit at this many
# waiting tables at once, so the lobby stays a list of games about to start.
CORREO_TABLE_EXPIRY_DAYS = env.int("CORREO_TABLE_EXPIRY_DAYS", default=14)
CORREO_MAX_WAITING_TABLES = env.int("CORREO_MAX_WAITING_TABLES", default=10)
# How often beat looks for expired tables (a day's precision is plenty).
CELERY_BEAT_SCHEDULE["expire-tables"] = {
    "task": "games.tasks.expire_tables",
    "schedule": env.float("CORREO_TABLE_SWEEP_INTERVAL", default=600.0),
}
# How often beat seats a tournament round whose games have all ended but
# whose message to do so was lost (tournaments.tasks.sweep_rounds).
CELERY_BEAT_SCHEDULE["sweep-tournament-rounds"] = {
    "task": "tournaments.tasks.sweep_rounds",
    "schedule": env.float("CORREO_TOURNAMENT_SWEEP_INTERVAL", default=600.0),
}

# Pacing the "your turn" mails (notifications.pacing): a player seen at the
# game's page within CORREO_PRESENCE_SECONDS gets none for that game (and it
# goes that long after they leave without moving); one that comes within
# CORREO_COALESCE_SECONDS of the last mail about the game waits, and the
# newest of those goes as one.  0 turns either off.
CORREO_PRESENCE_SECONDS = env.int("CORREO_PRESENCE_SECONDS", default=180)
CORREO_COALESCE_SECONDS = env.int("CORREO_COALESCE_SECONDS", default=600)

# Server push to open game pages (web.push, web.views.push): served by the
# ASGI workers; off, or under WSGI, the pages poll every 5 s as before.
CORREO_PUSH = env.bool("CORREO_PUSH", default=True)
CORREO_PUSH_HEARTBEAT_SECONDS = env.float("CORREO_PUSH_HEARTBEAT_SECONDS", default=25.0)
CORREO_PUSH_RETRY_MS = env.int("CORREO_PUSH_RETRY_MS", default=5000)

# The longest message one may send at a table, in characters (games.services.talk).
CORREO_MESSAGE_LENGTH = env.int("CORREO_MESSAGE_LENGTH", default=2000)

# Current states and game views memoised per process (entries never go stale).
CORREO_STATE_CACHE_SIZE = env.int("CORREO_STATE_CACHE_SIZE", default=512)

# JSON lines with request id and game id (ops/logging.py); LOG_FORMAT=text for humans.
LOGGING = logging_config(env.str("LOG_LEVEL", default="INFO"), env.str("LOG_FORMAT", "json"))
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
