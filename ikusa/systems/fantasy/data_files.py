"""Loading the shipped definition files (``data/*.yaml``): a list of pydantic models, keyed by id."""

from __future__ import annotations

from importlib import resources
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError

M = TypeVar("M", bound=BaseModel)


def parse_definitions(model: type[M], raw: Any, source: str, what: str) -> dict[str, M]:
    """Validate a list of ``model`` definitions into a dict by ``id``; errors name ``source``
    and the item (``[3].name``)."""
    if not isinstance(raw, list):
        raise InputError(f"must be a list of {what} definitions", source=source, field=what + "s")
    out: dict[str, M] = {}
    for i, item in enumerate(raw):
        try:
            d = model.model_validate(item)
        except ValidationError as exc:
            err = validation_error(exc, source)
            raise InputError(err.message, source=source, field=f"[{i}].{err.field}") from None
        out[getattr(d, "id")] = d  # noqa: B009 - every definition model has an id
    return out


def load_definitions(model: type[M], filename: str, what: str) -> dict[str, M]:
    """The shipped ``data/<filename>`` of ikusa.systems.fantasy, validated."""
    text = resources.files("ikusa.systems.fantasy").joinpath("data", filename).read_text("utf-8")
    return parse_definitions(model, yaml.safe_load(text), f"ikusa/systems/fantasy/data/{filename}", what)
