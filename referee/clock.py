"""Time controls: a per-decision allowance, a time bank and an increment (a Fischer clock), with strikes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How long bots may think. A decision times out only past allowance + bank + tolerance."""

    per_decision_seconds: float = 5.0
    bank_seconds: float = 30.0
    increment_seconds: float = 0.0
    startup_seconds: float = 15.0
    tolerance_seconds: float = 0.05
    strikes_allowed: int = 0

    def __post_init__(self) -> None:
        for name in ("per_decision_seconds", "bank_seconds", "increment_seconds", "startup_seconds", "tolerance_seconds"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or value < 0:
                from referee.errors import ConfigError

                raise ConfigError(f"time control {name} must be a number >= 0, not {value!r}")
        if self.per_decision_seconds <= 0 and self.bank_seconds <= 0:
            from referee.errors import ConfigError

            raise ConfigError("time control needs a per-decision allowance or a bank above 0")


@dataclass(slots=True)
class SeatClock:
    """One seat's clock during a match."""

    control: TimeControl
    bank_remaining: float
    strikes: int = 0

    @classmethod
    def start(cls, control: TimeControl) -> SeatClock:
        return cls(control, control.bank_seconds)

    def deadline_seconds(self) -> float:
        """Seconds this decision may take before it is a timeout (tolerance included)."""
        return self.control.per_decision_seconds + self.bank_remaining + self.control.tolerance_seconds

    def charge(self, elapsed: float) -> None:
        """Book an answered decision: time past the allowance comes out of the bank, then the increment."""
        overrun = max(0.0, elapsed - self.control.per_decision_seconds)
        self.bank_remaining = max(0.0, self.bank_remaining - overrun) + self.control.increment_seconds

    def strike(self) -> bool:
        """Book a timeout; True if the seat has now used up its strikes and must be replaced."""
        self.strikes += 1
        self.bank_remaining = 0.0
        return self.strikes > self.control.strikes_allowed
