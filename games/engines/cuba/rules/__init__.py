"""The rules libraries: money, certificates, privates, rolling stock,
emergency financing, income and the operating company's turn. Pure
functions over plain data; they know nothing of rounds or steps."""
