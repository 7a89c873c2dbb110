"""Noninterference through the optional front ends: the learning environments and the web, each with a planted leak.

Each leaky game of :mod:`tests.secret_route_games` breaks one member that only one family of routes reads;
the check names the first route of that family it reaches, and, with that family left out, the game passes:
its only leak is there. Where a package is missing, the report says which families were left out and why.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import game_named
from cheekymonkey.testing import NoninterferenceError, check_noninterference
from cheekymonkey.testing.noninterference import ADAPTER_ROUTES, FAMILIES
from tests.secret_route_games import (
    LEARNABLE_GUESS,
    LeakyLogGame,
    LeakyMaskGame,
    LeakyObservationGame,
    LeakyOutcomeGame,
    LeakyRenderGame,
    LearnableGuess,
    UnencodableGuess,
)

NOT_REGISTERED = "the game is not registered under its name, which the adapter loads it by"
NO_ENGINE = "the game has no batched engine"


def _leak(game: LearnableGuess, *skip: str) -> NoninterferenceError:
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(game, seed=3, games=30, skip=skip)
    assert failure.value.game == game.name
    return failure.value


def test_the_guessing_game_with_its_encoding_passes_through_every_front_end() -> None:
    report = check_noninterference(LEARNABLE_GUESS, seed=3, games=30)
    assert report.checked == ("gymnasium", "pettingzoo", "web")
    assert report.unchecked == (("openspiel", NOT_REGISTERED), ("gymnasium vector", NO_ENGINE))
    assert report.states == 30 * 4
    assert report.events > 30


def test_an_observation_showing_the_other_card_fails_on_each_environments_observation() -> None:
    gym = _leak(LeakyObservationGame())
    assert (gym.route, gym.seat) == ("gymnasium observation", 1)
    assert gym.history[0].endswith("to seat 0")  # seat 0's card, dealt first, which seat 1 must not see
    assert "through the route 'gymnasium observation'" in str(gym)
    assert _leak(LeakyObservationGame(), "gymnasium").route == "pettingzoo observation"
    check_noninterference(LeakyObservationGame(), seed=3, games=30, skip=("gymnasium", "pettingzoo"))


def test_a_mask_allowing_only_the_right_guess_fails_on_the_masks_and_the_info() -> None:
    gym = _leak(LeakyMaskGame())
    assert (gym.route, gym.seat, len(gym.history)) == ("gymnasium action mask", 0, 2)  # at the guess, both dealt
    assert _leak(LeakyMaskGame(), "gymnasium action mask").route == "gymnasium info"
    assert _leak(LeakyMaskGame(), "gymnasium").route == "pettingzoo action mask"
    check_noninterference(LeakyMaskGame(), seed=3, games=30, skip=("gymnasium", "pettingzoo"))


def test_a_text_board_of_the_whole_state_fails_on_each_environments_render() -> None:
    gym = _leak(LeakyRenderGame())
    assert (gym.route, gym.seat) == ("gymnasium render", 1)
    assert _leak(LeakyRenderGame(), "gymnasium").route == "pettingzoo render"
    check_noninterference(LeakyRenderGame(), seed=3, games=30, skip=("gymnasium", "pettingzoo"))


def test_log_lines_grouped_by_a_hidden_card_fail_on_the_web_table_and_stream() -> None:
    table = _leak(LeakyLogGame())
    assert (table.route, table.seat) == ("web table after a step", 1)
    assert table.history[-1].endswith("to seat 0")
    assert "log" in str(table)
    assert _leak(LeakyLogGame(), "web table after a step").route == "web stream after a step"
    assert str(_leak(LeakyLogGame(), "web table after a step")).count("event: table") == 2
    check_noninterference(LeakyLogGame(), seed=3, games=30, skip=("web",))


def test_an_outcome_telling_what_no_card_showed_fails_on_the_web_table_and_stream() -> None:
    """Only the web's table carries the outcome: seat 0 learns from it whether it guessed seat 1's card.

    The first game where the leak shows, the two states drawn at its end held the same card, so the table
    after the guess, played again in a state drawn before it, names it; left out, the tables at the end do.
    """
    after = _leak(LeakyOutcomeGame())
    assert (after.route, after.seat, after.history) == (
        "web table after a step",
        0,
        ("card 2 to seat 0", "card 0 to seat 1", "guess 1"),
    )
    assert '"outcome":{"winners":[1],"ranks":[2,1]}' in str(after)  # the true one: seat 1 holds 0, not 1
    assert _leak(LeakyOutcomeGame(), "web table after a step").route == "web stream after a step"
    at_end = _leak(LeakyOutcomeGame(), "web table after a step", "web stream after a step")
    assert (at_end.route, at_end.seat, len(at_end.history)) == ("web table", 0, 3)
    assert at_end.history[-1] == "guess 2"
    stream = _leak(LeakyOutcomeGame(), "web table", "web table after a step", "web stream after a step")
    assert (stream.route, stream.seat) == ("web stream", 0)
    assert '"outcome": {"winners"' in str(stream)
    check_noninterference(LeakyOutcomeGame(), seed=3, games=30, skip=("web",))


def test_a_vector_environment_showing_other_than_the_single_one_fails_on_its_observation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The vector environment is held to the single one bit for bit: one that shows more is caught."""
    from cheekymonkey.rl import gymnasium_vector

    class _ShowsTheBag(gymnasium_vector.SoloVectorEnv):
        def _observe(self) -> Any:
            out = super()._observe()
            out[:, -1] += 1.0
            return out

    monkeypatch.setattr(gymnasium_vector, "SoloVectorEnv", _ShowsTheBag)
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(game_named("too-many-monkeys"), seed=1, games=1, max_steps=5, skip=("web", "pettingzoo"))
    assert failure.value.route == "gymnasium vector observation"
    assert failure.value.history == ("a game of the vector environment",)


def test_a_vector_environment_masking_other_than_the_single_one_fails_on_its_mask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A vector mask that leaves out a legal action (as one narrowed by a hidden card would) is caught."""
    from cheekymonkey.rl import gymnasium_vector

    class _DropsTheFirst(gymnasium_vector.SoloVectorEnv):
        def action_masks(self) -> Any:
            mask = super().action_masks().copy()
            first = mask.argmax(axis=1)
            if mask.sum(axis=1)[0] > 1:
                mask[0, first[0]] = False
            return mask

    monkeypatch.setattr(gymnasium_vector, "SoloVectorEnv", _DropsTheFirst)
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(game_named("too-many-monkeys"), seed=1, games=1, max_steps=5, skip=("web", "pettingzoo"))
    assert failure.value.route == "gymnasium vector action mask"
    assert failure.value.history == ("a game of the vector environment",)


def test_the_vector_environment_of_a_game_with_a_batched_engine_is_compared() -> None:
    report = check_noninterference(game_named("too-many-monkeys"), seed=2, games=1, max_steps=10, skip=("web",))
    assert report.checked == ("openspiel", "gymnasium", "gymnasium vector", "pettingzoo")
    assert report.unchecked == (("web", "skipped, as asked"),)
    assert report.vector_states == 10 * report.seats


_MODULES = {
    "openspiel": ("cheekymonkey.rl.openspiel_game",),
    "gymnasium": ("cheekymonkey.rl.gymnasium_env",),
    "gymnasium vector": ("cheekymonkey.rl.gymnasium_vector",),
    "pettingzoo": ("cheekymonkey.rl.pettingzoo_env",),
    "web": ("cheekymonkey.web.app",),
}
_MISSING = {
    "openspiel": "OpenSpiel is not installed (the rl extra)",
    "gymnasium": "Gymnasium is not installed (the rl extra)",
    "gymnasium vector": "Gymnasium, numpy or numba is not installed (the rl and batched extras)",
    "pettingzoo": "PettingZoo is not installed (the rl extra)",
    "web": "Starlette is not installed (the web extra)",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_a_front_end_that_cannot_be_imported_is_reported_unchecked_not_passed(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user without an extra: the family's module cannot be imported, and the report says so."""
    for module in _MODULES[family]:
        monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError, as without the package
        parent, _, name = module.rpartition(".")
        if parent in sys.modules:
            monkeypatch.delattr(sys.modules[parent], name, raising=False)  # nor is it found on its package
    report = check_noninterference(game_named("too-many-monkeys"), seed=2, games=1, max_steps=3)
    assert dict(report.unchecked) == {family: _MISSING[family]}
    assert report.checked == tuple(other for other in FAMILIES if other != family)
    assert report.openspiel == (family != "openspiel")


def test_a_game_without_encodings_is_compared_on_the_web_only() -> None:
    from tests.secret_games import GUESS

    report = check_noninterference(GUESS, seed=3, games=5)
    assert report.checked == ("web",)
    assert dict(report.unchecked) == dict.fromkeys(FAMILIES[:4], "the game offers no encodings for learning")


def test_an_environment_refusing_the_game_is_reported_unchecked_with_its_error() -> None:
    report = check_noninterference(UnencodableGuess(), seed=3, games=5)
    assert report.checked == ("web",)
    refused = "the environment refuses the game at 2 seats: no encoding for 2 seats"
    assert dict(report.unchecked) == {
        "openspiel": NOT_REGISTERED,
        "gymnasium": refused,
        "gymnasium vector": NO_ENGINE,
        "pettingzoo": refused,
    }


def test_every_route_a_report_can_name_may_be_skipped_and_nothing_else() -> None:
    report = check_noninterference(LeakyObservationGame(), seed=3, games=5, skip=ADAPTER_ROUTES)
    assert report.checked == ()  # every route skipped one by one: no family compared, the leak unseen
    assert dict(report.unchecked) == {
        "openspiel": "skipped, as asked",
        "gymnasium": "skipped, as asked",
        "gymnasium vector": "skipped, as asked",
        "pettingzoo": "skipped, as asked",
        "web": "skipped, as asked",
    }
    with pytest.raises(InvalidValueError, match="skip names 'view'"):
        check_noninterference(LEARNABLE_GUESS, seed=3, skip=("view",))
    with pytest.raises(InvalidValueError, match="skip must be a collection"):
        check_noninterference(LEARNABLE_GUESS, seed=3, skip="web")


def test_the_routes_compare_what_each_front_end_hands_its_seat() -> None:
    """The environments' and the web's own values: an observation's bytes, a mask, a table's JSON, a stream."""
    from cheekymonkey.testing._routes import Adapters

    adapters = Adapters(LEARNABLE_GUESS, 2, None, ())
    state = LEARNABLE_GUESS.apply(LEARNABLE_GUESS.apply(LEARNABLE_GUESS.new_game(2), _deal(0, 2)), _deal(1, 0))
    routes = adapters.state_routes(state, 0)
    assert routes["gymnasium observation"] == ("float32", (4,), np.array([3, 2, 0, 0], np.float32).tobytes())
    assert routes["gymnasium action mask"] == ("bool", (3,), bytes([1, 1, 0]))
    assert routes["pettingzoo action mask"] == ("int8", (3,), bytes([1, 1, 0]))
    assert routes["pettingzoo info"] == (("no_decision", "False"),)
    assert "dealt" in str(routes["gymnasium render"])
    table = routes["web table"]
    assert isinstance(table, bytes)
    assert b'"seat":0' in table
    assert b'"legal":[{' in table
    assert str(routes["web stream"]).startswith("event: table\nid: 0\ndata: {")
    assert "gymnasium action mask" not in adapters.state_routes(state, 1)  # seat 1 never decides
    after = adapters.step_routes(state, _guess(1), 0)
    assert b'"waiting":"over"' in after["web table after a step"]  # type: ignore[operator]
    assert str(after["web stream after a step"]).count("event: table") == 2  # the last table, then closed
    assert '"closed": true' in str(after["web stream after a step"])


def _deal(seat: int, card: int) -> Any:
    from tests.secret_games import Deal

    return Deal(seat, card)


def _guess(card: int) -> Any:
    from tests.secret_games import Guess

    return Guess(card)


def test_a_state_met_again_is_not_driven_through_the_front_ends_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The routes are a function of the state and seat: an equal state, even another object, reuses them."""
    from cheekymonkey.testing._routes import Adapters
    from cheekymonkey.web import messages
    from tests.secret_games import GuessState

    built: list[int] = []
    real = messages.table_message

    def counted(room: Any, seat: int, since: int = 0) -> dict[str, Any]:
        built.append(seat)
        return real(room, seat, since)

    monkeypatch.setattr(messages, "table_message", counted)
    adapters = Adapters(LEARNABLE_GUESS, 2, None, ())
    first = adapters.state_routes(GuessState((0, 2), None), 0)
    assert built == [0]
    assert adapters.state_routes(GuessState((0, 2), None), 0) == first
    assert built == [0]
    adapters.state_routes(GuessState((0, 2), None), 1)
    adapters.state_routes(GuessState((0, 1), None), 0)
    assert built == [0, 1, 0]
    adapters.step_routes(GuessState((0, 2), None), _guess(1), 0)
    adapters.step_routes(GuessState((0, 2), None), _guess(1), 0)
    assert built == [0, 1, 0, 0]
