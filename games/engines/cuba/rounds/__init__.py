"""18Cuba's rounds: a small base (`base`) and the rounds that list their steps."""
