"""HTTP doors: inbound mail for providers, and the unsubscribe link."""

from __future__ import annotations

import base64
import hmac

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import User
from notifications import inbound
from notifications.addresses import unsubscribe_user_id

RETRY_AFTER = 30  # seconds; a provider's own retry schedule usually takes over


def _secret_matches(request) -> bool:
    """`Authorization: Bearer <secret>`, HTTP basic with the secret as password
    (for providers that only put credentials in the URL), or X-Correo-Inbound-Secret."""
    secret = settings.INBOUND_EMAIL_SECRET
    if not secret:
        return False
    given = request.headers.get("X-Correo-Inbound-Secret", "")
    auth = request.headers.get("Authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer":
        given = value.strip()
    elif scheme.lower() == "basic":
        try:
            given = base64.b64decode(value.strip()).decode().partition(":")[2]
        except (ValueError, UnicodeDecodeError):
            given = ""
    return hmac.compare_digest(given.encode(), secret.encode())


@csrf_exempt
@require_http_methods(["POST"])
def inbound_email(request):
    """POST /api/inbound/email/: the raw MIME message is the request body."""
    if not settings.INBOUND_EMAIL_SECRET:
        return JsonResponse(
            {"error": "disabled", "detail": "inbound mail over HTTP is not configured"},
            status=404,
        )
    if not _secret_matches(request):
        return JsonResponse({"error": "forbidden", "detail": "wrong inbound secret"}, status=403)
    limit = settings.NOTIFICATIONS_INBOUND_MAX_BYTES
    # Read past the limit so that an oversized mail is recognised (and answered).
    raw = request.read(limit + 65536)
    recipients = request.GET.getlist("recipient")
    outcome = inbound.receive(raw, door="http", recipients=recipients)
    return inbound_answer(outcome)


def inbound_answer(outcome: inbound.Outcome) -> JsonResponse:
    """200 for every mail that was dealt with, refusals included: providers
    retry anything else; 503 with Retry-After when nothing was recorded and the
    same mail must come again."""
    body = {"status": outcome.status, "reason": outcome.reason, "detail": outcome.detail}
    if outcome.retry:
        return JsonResponse(body, status=503, headers={"Retry-After": str(RETRY_AFTER)})
    return JsonResponse(body)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET shows a confirmation (link scanners must not unsubscribe anyone);
    POST (the button, or a one-click List-Unsubscribe-Post) turns mail off."""
    user_id = unsubscribe_user_id(token)
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        return HttpResponse("This unsubscribe link is not valid.", status=400,
                            content_type="text/plain")  # fmt: skip
    done = False
    if request.method == "POST":
        user.notify_mode = User.NotifyMode.OFF
        user.save(update_fields=["notify_mode"])
        done = True
    return render(request, "notifications/unsubscribe.html", {"user": user, "done": done})
