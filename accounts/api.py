"""Register, obtain, list and revoke tokens, change the address and the
password.  Passwords go through Django's validators; what changes the
credentials asks for the current password (accounts.credentials)."""

from __future__ import annotations

import logging
import math

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, transaction
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import blocks, credentials, rules, tokens, verification
from accounts.authentication import CachedTokenAuthentication
from accounts.models import ApiToken, User
from ops.keys import LARGEST_ID
from ops.parsers import JSONParser
from ops.throttling import ScopedRateThrottle

TOKEN_NAME_HELP = "Your word for the token (a laptop, a script), shown in the list of tokens."

log = logging.getLogger(__name__)


class RegisterIn(serializers.Serializer):
    """Its rules live in accounts.rules, shared with the web's sign-up form.
    Passwords are taken as typed, spaces and all, here and at log-in, as
    the web's forms take them (and as the schema's maxLength counts them)."""

    username = serializers.CharField(
        max_length=rules.USERNAME_INPUT_MAX, help_text=rules.USERNAME_HELP
    )
    # The column's length: Django's validator alone lets 320 characters by.
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True,
                                 help_text=TOKEN_NAME_HELP)  # fmt: skip

    def validate_username(self, value: str) -> str:
        return rules.check_new_username(value)

    def validate(self, data):
        try:
            rules.check_new_password(
                data["password"], username=data["username"], email=data["email"]
            )
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from None
        return data


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True,
                                 help_text=TOKEN_NAME_HELP)  # fmt: skip


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="The key, shown this once: the server keeps a hash.")


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(summary="Create an account", request=RegisterIn, responses={201: TokenOut})
    def post(self, request):
        serializer = RegisterIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            with transaction.atomic():
                user = User.objects.create_user(data["username"], data["email"], data["password"])
                verification.start(user)
                _, key = tokens.issue(user, data["name"])
        except IntegrityError:
            # The rules passed, but a look-alike was taken between their check
            # and the insert: the unique key column refused the second.
            raise serializers.ValidationError({"username": [rules.TAKEN]}) from None
        except DataError:
            # A value the rules let by that its column cannot hold: a gap in
            # the rules, still the client's input and never a 500.
            log.warning("register: a value too long for its column passed the rules")
            raise serializers.ValidationError("a value is too long") from None
        return Response({"token": key}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """POST: a new token for a username and password (nothing else mints
    one: not a session, not another token).  DELETE: log out, revoking the
    token that makes the request; only a token can, so it is the only
    authentication this method takes."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    def _logging_out(self) -> bool:
        # The schema generator asks before it gives the view a request.
        request = getattr(self, "request", None)
        return request is not None and request.method == "DELETE"

    def get_authenticators(self):
        return [CachedTokenAuthentication()] if self._logging_out() else []

    def get_permissions(self):
        if self._logging_out():
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    @extend_schema(summary="Exchange username and password for a new token", request=TokenIn,
                   responses={200: TokenOut})  # fmt: skip
    def post(self, request):
        serializer = TokenIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None:
            raise serializers.ValidationError("wrong username or password")
        _, key = tokens.issue(user, data["name"])
        return Response({"token": key})

    @extend_schema(summary="Log out: revoke the token this request carries", request=None,
                   responses={204: None})  # fmt: skip
    def delete(self, request):
        tokens.revoke(request.user, ApiToken.objects.filter(pk=request.auth.pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenItemOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The key's first characters; the rest is secret.")
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(
        allow_null=True,
        help_text="Null: never used; else right to within a quarter hour (it is written at "
        "most that often).",
    )
    expires = serializers.DateTimeField(
        help_text="CORREO_TOKEN_TTL_DAYS after the last use (each use renews it)."
    )
    current = serializers.BooleanField(help_text="Whether this request carries this token.")


class TokensOut(serializers.Serializer):
    tokens = TokenItemOut(many=True)


def token_data(token: ApiToken, request) -> dict:
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created": token.created,
        "last_used": token.last_used,
        "expires": token.expires,
        "current": isinstance(request.auth, ApiToken) and request.auth.pk == token.pk,
    }


class TokensView(APIView):
    @extend_schema(summary="Your API tokens (never their keys)", responses={200: TokensOut})
    def get(self, request):
        found = tokens.live(request.user)
        return Response({"tokens": [token_data(token, request) for token in found]})


class TokenItemView(APIView):
    @extend_schema(summary="Revoke one of your API tokens", request=None, responses={204: None})
    def delete(self, request, pk: int):
        if pk > LARGEST_ID:
            raise exceptions.NotFound()
        if not tokens.revoke(request.user, ApiToken.objects.filter(pk=pk)):
            raise exceptions.NotFound()  # no such token, or another account's
        return Response(status=status.HTTP_204_NO_CONTENT)


class _AuthScope:
    throttle_scope = "auth"


def limit_password_checks(request) -> None:
    """A request that checks the current password counts in the "auth"
    scope, as a log-in does: a stolen token is no way to guess the password
    faster than the log-in form allows."""
    throttle = ScopedRateThrottle()
    if not throttle.allow_request(request, _AuthScope()):
        raise exceptions.Throttled(math.ceil(throttle.wait() or 1))


def require_current_password(request, password: str | None) -> None:
    limit_password_checks(request)
    if not password:
        raise serializers.ValidationError({"current_password": [credentials.NO_PASSWORD]})
    if not credentials.password_is_right(request, request.user, password):
        raise serializers.ValidationError({"current_password": [credentials.WRONG_PASSWORD]})


def fresh_token(request) -> str:
    """A token for the client that just changed the credentials (all the
    account's tokens ended with the change), named as the one it used."""
    name = request.auth.name if isinstance(request.auth, ApiToken) else ""
    return tokens.issue(request.user, name)[1]


class PasswordIn(serializers.Serializer):
    # Passwords as typed, spaces and all, as Django's password forms take them.
    current_password = serializers.CharField(
        max_length=128, write_only=True, allow_blank=True, trim_whitespace=False
    )
    new_password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)


class PasswordView(APIView):
    """Change the password: the current one is required, every token of the
    account ends, and the account holder is told by mail."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Change your password (the current one is required; every token is revoked)",
        request=PasswordIn,
        responses={200: TokenOut},
    )
    def post(self, request):
        serializer = PasswordIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        require_current_password(request, data["current_password"])
        try:
            credentials.check_new_password(request.user, data["new_password"])
        except DjangoValidationError as error:
            raise serializers.ValidationError({"new_password": list(error.messages)}) from None
        with transaction.atomic():
            credentials.do_change_password(request.user, data["new_password"])
            key = fresh_token(request)
        return Response({"token": key})


LANGUAGE_ERROR = "{input} is not a language Correo's mail speaks; choose one of: " + ", ".join(
    code for code, _ in settings.LANGUAGES
)


class MeOut(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    notify_mode = serializers.ChoiceField(choices=User.NotifyMode.choices)
    webhook_url = serializers.URLField(allow_blank=True)
    every_mail = serializers.BooleanField()
    language = serializers.ChoiceField(choices=settings.LANGUAGES)
    token = serializers.CharField(
        required=False,
        help_text="Only after an email change, which revoked every token of the account: "
        "a new one for this client.",
    )


class MeIn(serializers.Serializer):
    email = serializers.EmailField(
        required=False, max_length=254, help_text="A change needs current_password."
    )
    current_password = serializers.CharField(
        required=False, max_length=128, write_only=True, allow_blank=True,
        trim_whitespace=False, help_text="Your password, required to change the email address.",
    )  # fmt: skip
    notify_mode = serializers.ChoiceField(choices=User.NotifyMode.choices, required=False)
    webhook_url = serializers.URLField(required=False, allow_blank=True, max_length=500)
    every_mail = serializers.BooleanField(
        required=False,
        help_text="every turn mail at once, even while you are at the game's page, and "
        "never gathered with the next one",
    )
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        error_messages={"invalid_choice": LANGUAGE_ERROR},
    )

    def validate_webhook_url(self, value: str) -> str:
        return rules.check_webhook_url(value)


def me_data(user: User) -> dict:
    return {
        "username": user.username,
        "email": user.email,
        "notify_mode": user.notify_mode,
        "webhook_url": user.webhook_url,
        "every_mail": user.every_mail,
        "language": user.language,
    }


class MeView(APIView):
    """The requester's account and mail preferences: every turn, a daily digest
    or off, an optional webhook URL that receives each notification as JSON,
    and the language of the mail."""

    parser_classes = [JSONParser]

    @extend_schema(summary="Your account and notification preferences", responses={200: MeOut})
    def get(self, request):
        return Response(me_data(request.user))

    @extend_schema(
        summary="Change your email (with current_password), notification mode, webhook URL "
        "or mail language",
        request=MeIn,
        responses={200: MeOut},
    )
    def patch(self, request):
        serializer = MeIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        password = data.pop("current_password", None)
        email = data.pop("email", None)
        user = request.user
        changing_email = email is not None and email != user.email
        if changing_email:
            require_current_password(request, password)
        with transaction.atomic():
            for name, value in data.items():
                setattr(user, name, value)
            if data:
                user.save(update_fields=list(data))
            answer = me_data(user)
            if changing_email:
                credentials.do_change_email(user, email)
                answer = {**me_data(user), "token": fresh_token(request)}
        return Response(answer)


class BlockIn(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="the account to block")


class BlocksOut(serializers.Serializer):
    blocks = serializers.ListField(child=serializers.CharField())


class BlocksView(APIView):
    @extend_schema(summary="The accounts you blocked (nobody else sees this list)",
                   responses={200: BlocksOut})  # fmt: skip
    def get(self, request):
        return Response({"blocks": blocks.blocked_names(request.user)})

    @extend_schema(
        summary="Block an account",
        description="Neither of you will see the other's waiting tables or sit at a table "
        "with the other; their invitations never reach you. They are not told.",
        request=BlockIn,
        responses={201: BlocksOut},
    )
    def post(self, request):
        data = BlockIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            blocks.block(request.user, data.validated_data["username"])
        except blocks.Refused as refusal:
            raise exceptions.ValidationError({"username": [str(refusal)]}) from None
        return Response(
            {"blocks": blocks.blocked_names(request.user)}, status=status.HTTP_201_CREATED
        )


class BlockItemView(APIView):
    @extend_schema(summary="Lift a block", request=None, responses={204: None})
    def delete(self, request, username: str):
        try:
            lifted = blocks.unblock(request.user, username)
        except blocks.Refused:
            lifted = False
        if not lifted:
            raise exceptions.NotFound()
        return Response(status=status.HTTP_204_NO_CONTENT)
