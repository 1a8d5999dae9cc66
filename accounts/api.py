"""Register and obtain a token; passwords go through Django's validators."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, transaction
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import rules
from accounts.models import User
from config.parsers import JSONParser
from config.throttling import ScopedRateThrottle

log = logging.getLogger(__name__)


class RegisterIn(serializers.Serializer):
    """Its rules live in accounts.rules, shared with the web's sign-up form."""

    username = serializers.CharField(
        max_length=rules.USERNAME_INPUT_MAX, help_text=rules.USERNAME_HELP
    )
    # The column's length: Django's validator alone lets 320 characters by.
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(max_length=128, write_only=True)

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
    password = serializers.CharField(max_length=128, write_only=True)


class TokenOut(serializers.Serializer):
    token = serializers.CharField()


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
                token, _ = Token.objects.get_or_create(user=user)
        except IntegrityError:
            # The rules passed, but a look-alike was taken between their check
            # and the insert: the unique key column refused the second.
            raise serializers.ValidationError({"username": [rules.TAKEN]}) from None
        except DataError:
            # A value the rules let by that its column cannot hold: a gap in
            # the rules, still the client's input and never a 500.
            log.warning("register: a value too long for its column passed the rules")
            raise serializers.ValidationError("a value is too long") from None
        return Response({"token": token.key}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(summary="Exchange username and password for a token", request=TokenIn,
                   responses={200: TokenOut})  # fmt: skip
    def post(self, request):
        serializer = TokenIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request, **serializer.validated_data)
        if user is None:
            raise serializers.ValidationError("wrong username or password")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


LANGUAGE_ERROR = "{input} is not a language Correo's mail speaks; choose one of: " + ", ".join(
    code for code, _ in settings.LANGUAGES
)


class MeOut(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    notify_mode = serializers.ChoiceField(choices=User.NotifyMode.choices)
    webhook_url = serializers.URLField(allow_blank=True)
    language = serializers.ChoiceField(choices=settings.LANGUAGES)


class MeIn(serializers.Serializer):
    email = serializers.EmailField(required=False, max_length=254)
    notify_mode = serializers.ChoiceField(choices=User.NotifyMode.choices, required=False)
    webhook_url = serializers.URLField(required=False, allow_blank=True, max_length=500)
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

    @extend_schema(summary="Change your email, notification mode, webhook URL or mail language",
                   request=MeIn, responses={200: MeOut})  # fmt: skip
    def patch(self, request):
        serializer = MeIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        for name, value in serializer.validated_data.items():
            setattr(user, name, value)
        if serializer.validated_data:
            user.save(update_fields=list(serializer.validated_data))
        return Response(me_data(user))
