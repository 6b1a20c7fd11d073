"""qa2: ``ikusa sim --set`` as a designer types it."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError
from ikusa.lab.simulate import apply_overrides


@pytest.mark.parametrize("item", ["options..x=1", "options.count.=1", ".options=1"])
def test_an_empty_key_in_a_set_path_is_named(item: str) -> None:
    """'options..x=1' used to add an option literally named '' and fail with the unrelated
    'options: Extra inputs are not permitted'."""
    with pytest.raises(InputError, match="empty key") as err:
        apply_overrides({"options": {}}, [item], "enc.yaml")
    assert err.value.field == "--set"


def test_well_formed_overrides_still_apply() -> None:
    body = apply_overrides({"options": {"count": {"same_side_ties": "choose"}}},
                           ["options.count.same_side_ties=encounter_order", "options.simplified=true"], "e")
    assert body == {"options": {"count": {"same_side_ties": "encounter_order"}, "simplified": True}}
