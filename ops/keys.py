"""The bounds of a row's key: ids are 64-bit (BigAutoField), and SQLite's
driver overflows on a larger parameter, so an id beyond LARGEST_ID, in a path
or a body, names no row and is answered without a query."""

LARGEST_ID = 2**63 - 1
