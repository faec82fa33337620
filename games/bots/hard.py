"""Hard: placeholder until the search lands."""
from .normal import choose  # noqa: F401
