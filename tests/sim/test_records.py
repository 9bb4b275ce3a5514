"""How game records are laid out as JSON text."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dominari.sim.records import record_text

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(), VALUES, max_size=6))
def test_a_records_text_reads_back_as_the_record(record: dict[str, Any]) -> None:
    """Whatever a record holds (names with quotes, new lines or any script, nested lists),
    its text reads back as it; every key of the record, and every item of a list of
    its, begins a line of its own."""
    text = record_text(record)
    assert json.loads(text) == record
    assert text.endswith("}\n") and text.startswith("{\n")
    lines = text.split("\n")  # (not splitlines: a name may hold U+2028, written as it is)
    for key in record:
        lead = f" {json.dumps(key, ensure_ascii=False)}: "
        assert sum(line.startswith(lead) for line in lines) == 1
    assert sum(line.startswith("  ") for line in lines) == sum(
        len(v) for v in record.values() if isinstance(v, list))  # an item a line
