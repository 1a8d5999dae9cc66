"""Register and obtain a token; passwords go through Django's validators."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import User


class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{1,150}$", max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(max_length=128, write_only=True)

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("that username is taken")
        return value

    def validate(self, data):
        candidate = User(username=data["username"], email=data["email"])
        try:
            validate_password(data["password"], candidate)
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
        user = User.objects.create_user(data["username"], data["email"], data["password"])
        token, _ = Token.objects.get_or_create(user=user)
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
