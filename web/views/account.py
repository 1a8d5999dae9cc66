"""The account pages: sign up, and my settings (mail, webhook and its pause,
vacation, the address, the API tokens).  Logging in and out and the
passwords are Django's own views (config/urls.py); a new password ends the
API tokens there too (accounts.models.User.save)."""

from __future__ import annotations

import logging

from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import DataError, IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import blocks, credentials, rules, tokens, verification
from accounts.models import ApiToken, User
from games.clocks import vacation
from games.errors import ServiceError, in_words
from games.services.vacation import check_start_vacation
from notifications import webhooks
from web.forms import EmailChangeForm, SettingsForm, SignupForm, VacationForm

log = logging.getLogger(__name__)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:home")
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(wanted, {request.get_host()}, require_https=False):
        wanted = ""
    initial = {"email": request.GET.get("email", "")[:254]}
    form = SignupForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                user = User.objects.create_user(data["username"], data["email"], data["password1"])
                verification.start(user)
        except IntegrityError:
            # A look-alike taken between the form's check and the insert: the
            # unique key column refused the second.
            form.add_error("username", rules.TAKEN)
        except DataError:
            # A value its column cannot hold that the rules let by: a gap in
            # the rules, and still the visitor's input, never a 500.
            log.warning("signup: a value too long for its column passed the rules")
            form.add_error(None, "a value is too long")
        else:
            login(request, user)
            messages.success(request, f"Welcome to Correo, {user.username}.")
            return redirect(wanted or "web:home")
    return render(request, "web/signup.html", {"form": form, "next": wanted})


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            for name, value in form.cleaned_data.items():
                setattr(user, name, value)
            user.save(update_fields=list(form.cleaned_data))
            messages.success(request, "Settings saved.")
            return redirect("web:settings")
        messages.error(request, "Nothing was changed: see the form below.")
        return _settings(request, settings_form=form)
    return _settings(request)


@require_GET
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the verification mail: the address is confirmed (game
    mail may go to it from now), whoever follows it."""
    user = verification.user_for(token)
    if user is None:
        return render(request, "web/error.html", {
            "status": 404,
            "message": "This link does not confirm an address (any more): ask for a new one "
            "on your settings page.",
        }, status=404)  # fmt: skip
    verification.mark_verified(user)
    messages.success(request, f"Thank you: {user.email} is confirmed, game mail may go there.")
    return redirect("web:home")


@login_required
@require_POST
def send_verification(request: HttpRequest) -> HttpResponse:
    if request.user.email and not request.user.email_verified:
        verification.start(request.user)
        messages.success(request, f"A new link is on its way to {request.user.email}.")
    return redirect("web:settings")


@login_required
@require_POST
def block(request: HttpRequest) -> HttpResponse:
    """Block an account (private: they are not told)."""
    try:
        blocks.block(request.user, request.POST.get("username", "").strip())
    except blocks.Refused as refusal:
        messages.error(request, f"Nobody was blocked: {refusal}.")
    else:
        messages.success(request, "Blocked. Neither of you will see the other's tables.")
    return redirect("web:settings")


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    try:
        lifted = blocks.unblock(request.user, username)
    except blocks.Refused:
        lifted = False
    if lifted:
        messages.success(request, f"{username} is no longer blocked.")
    return redirect("web:settings")


@login_required
@require_POST
def start_vacation(request: HttpRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            check_start_vacation(request.user, days=form.cleaned_data["days"])
        except ServiceError as error:
            form.add_error("days", in_words(error))
        else:
            messages.success(request, "Your vacation has begun: your clocks stand still.")
            return redirect("web:settings")
    messages.error(request, "No vacation was started: see the form below.")
    return _settings(request, vacation_form=form)


@login_required
@require_POST
def resume_webhook(request: HttpRequest) -> HttpResponse:
    """The paused webhook's resume button (saving its URL again does the same)."""
    if webhooks.resume(request.user.pk):
        messages.success(request, "Your webhook is resumed: the next notification is posted.")
    return redirect("web:settings")


@login_required
@require_POST
def change_email(request: HttpRequest) -> HttpResponse:
    form = EmailChangeForm(request.POST, request=request)
    if form.is_valid():
        credentials.do_change_email(request.user, form.cleaned_data["email"])
        messages.success(
            request,
            "Your address is changed; the old one was told so. "
            "Every API token of the account was revoked.",
        )
        return redirect("web:settings")
    messages.error(request, "The address was not changed: see the form below.")
    return _settings(request, email_form=form)


@login_required
@require_POST
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    # A token of another account, or one already gone, is as good as revoked:
    # the page says so without telling whose it was.
    if tokens.revoke(request.user, ApiToken.objects.filter(pk=pk)):
        messages.success(request, "The token was revoked: it works no more.")
    else:
        messages.error(request, "No such token: it may have been revoked already.")
    return redirect("web:settings")


def _settings(
    request: HttpRequest, settings_form=None, vacation_form=None, email_form=None
) -> HttpResponse:
    user = request.user
    initial = {
        "notify_mode": user.notify_mode,
        "webhook_url": user.webhook_url,
        "every_mail": user.every_mail,
        "language": user.language,
    }
    return render(request, "web/settings.html", {
        "settings_form": settings_form or SettingsForm(initial=initial),
        "vacation_form": vacation_form or VacationForm(),
        "email_form": email_form or EmailChangeForm(request=request),
        "budget": vacation.budget(user),
        "webhook_pause": webhooks.pause_of(user),
        "tokens": list(tokens.live(user)),
        "token_ttl_days": django_settings.CORREO_TOKEN_TTL_DAYS,
        "blocked": blocks.blocked_names(user),
    })  # fmt: skip
