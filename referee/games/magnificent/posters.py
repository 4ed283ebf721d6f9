"""The Magnificent: gaining a poster (spec §4.7): source (deck, display, decline), display refill, placement."""

from __future__ import annotations

from referee.engine import Option


class PosterMixin:
    """Gaining a poster (spec §4.7) steps, options and applications, mixed into the game state."""

    def _step_gain_poster(self, seat: int) -> None:
        full = None not in self.players_state[seat].posters
        if full or self.poster_deck or self.poster_discard or any(self.poster_display):
            self._ask("GP1", seat)
        else:
            self.emit("poster_lost", seat=seat)

    def _options_gp1(self, seat: int) -> list[Option]:
        options = []
        if self.poster_deck or self.poster_discard:
            options.append(Option("deck", "draw the top poster of the deck", {"kind": "deck"}))
        for i, poster in enumerate(self.poster_display):
            if poster is not None:
                options.append(Option(f"display:{i + 1}", f"take {poster}", {"kind": "display", "slot": i + 1, "poster": poster}))
        if None not in self.players_state[seat].posters:
            options.append(Option("decline", "take no poster", {"kind": "decline"}))
        return options

    def _reshuffle_if_needed(self) -> None:
        if not self.poster_deck and self.poster_discard:
            self.poster_deck = sorted(self.poster_discard)
            self.poster_discard = []
            self.emit("posters_reshuffled", size=len(self.poster_deck))

    def _apply_gp1(self, seat: int, option: Option) -> None:
        kind = option.payload["kind"]
        if kind == "decline":
            self.emit("poster_declined", seat=seat)
        elif kind == "deck":
            self._reshuffle_if_needed()
            self._schedule(("chance", "poster_draw", seat), ("gp2", seat))
        else:
            slot = option.payload["slot"]
            self.poster_in_hand = self.poster_display[slot - 1]  # type: ignore[assignment]
            self.poster_display[slot - 1] = None
            self.emit("poster_taken", seat=seat, slot=slot, poster=self.poster_in_hand)
            self._schedule(("refill",), ("gp2", seat))

    def _chance_poster_draw(self, outcome: str, seat: int) -> None:
        self.poster_deck.remove(outcome)
        self.poster_in_hand = outcome
        self.emit("poster_drawn", seat=seat, poster=outcome)

    def _step_refill(self) -> None:
        for slot, poster in enumerate(self.poster_display):
            if poster is None:
                self._reshuffle_if_needed()
                if self.poster_deck:
                    self._schedule(("refill",))
                    self.chance = ("poster_display", slot)
                return

    def _chance_poster_display(self, outcome: str, slot: int) -> None:
        self.poster_deck.remove(outcome)
        self.poster_display[slot] = outcome
        self.emit("display_poster", slot=slot + 1, poster=outcome)

    def _step_gp2(self, seat: int) -> None:
        self._ask("GP2", seat)

    def _options_gp2(self, seat: int) -> list[Option]:
        posters = self.players_state[seat].posters
        new = self.poster_in_hand
        if None in posters:
            return [
                Option(f"slot:{s + 1}", f"put {new} in poster slot {s + 1}", {"kind": "slot", "slot": s + 1})
                for s, held in enumerate(posters)
                if held is None
            ]
        options = [
            Option(f"replace:{s + 1}", f"replace {posters[s]} with {new}", {"kind": "replace", "slot": s + 1})
            for s in range(5)
        ]
        options.append(Option("discard", f"discard {new}", {"kind": "discard"}))
        return options

    def _apply_gp2(self, seat: int, option: Option) -> None:
        posters = self.players_state[seat].posters
        new = self.poster_in_hand
        self.poster_in_hand = ""
        kind = option.payload["kind"]
        if kind == "discard":
            self.poster_discard.append(new)
            self.emit("poster_discarded", seat=seat, poster=new)
            return
        slot = option.payload["slot"]
        old = posters[slot - 1]
        if old is not None:
            self.poster_discard.append(old)
            self.emit("poster_discarded", seat=seat, poster=old)
        posters[slot - 1] = new
        self.emit("poster_placed", seat=seat, slot=slot, poster=new)
