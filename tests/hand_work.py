"""How a simulated student writes numbers (tests/students): kept as a rounding habit
(attention_core.honest.rounded_in_turn), typed with as many decimals as they kept."""


def typed(values) -> str:
    """A row as a student types it: as many decimals as they kept (at most 4)."""
    return ", ".join(f"{x:.4f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x)) for x in values)
