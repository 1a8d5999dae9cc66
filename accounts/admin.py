from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class CorreoUserAdmin(UserAdmin):
    list_display = ("username", "email", "is_moderator", "is_staff", "is_active")
    list_filter = ("is_moderator", "is_staff", "is_active")
    fieldsets = (*UserAdmin.fieldsets, ("Correo", {"fields": ("is_moderator",)}))
