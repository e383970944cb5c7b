"""The SVG renderer (crapette.svg): structure, hidden cards, highlights, arrows, hooks, CLI."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import crapette as c
from crapette import svg
from crapette.cli import main
from crapette.deal import Rng
from positions import position

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def piles(text: str) -> dict[str, ET.Element]:
    """The ``data-pile`` groups of an interactive picture, by pile name."""
    found = {
        g.get("data-pile", ""): g for g in parse(text).iter(f"{NS}g") if g.get("class") == "pile"
    }
    return found


def drawn(group: ET.Element) -> list[tuple[str, str | None]]:
    """The cards drawn in a pile group, bottom first: (class, data-card)."""
    return [
        (g.get("class", ""), g.get("data-card"))
        for g in group.iter(f"{NS}g")
        if g.get("class", "").startswith("card")
    ]


def known() -> c.GameState:
    return position(
        houses={0: "KS QH JC", 2: "4S", 5: "Ah"},
        foundations={0: "AS 2S 3S", 3: "Ac"},
        reserve0="2C 5D 8H",
        reserve1="TH",
        waste0="3D 7C",
        waste1="QC",
        turned="6S",
        to_act=0,
        fill_foundations=False,
        rest=("hand0", "hand1"),
    )


def test_every_pile_draws_its_cards() -> None:
    state = known()
    groups = piles(svg.board(state, interactive=True))
    assert sorted(groups) == sorted(svg.PILE_NAMES)
    cards = {name: drawn(group) for name, group in groups.items()}
    assert cards["F1"] == [("card", "3S")]  # a foundation shows its top card
    assert cards["F4"] == [("card", "Ac")]
    assert all(cards[f"F{i}"] == [] for i in (2, 3, 5, 6, 7, 8))
    assert cards["H1"] == [("card", "KS"), ("card", "QH"), ("card", "JC")]
    assert cards["H3"] == [("card", "4S")]
    assert cards["H6"] == [("card", "Ah")]
    assert all(cards[f"H{i}"] == [] for i in (2, 4, 5, 7, 8))
    assert cards["R0"] == [("card back", None), ("card", "8H")]
    assert cards["R1"] == [("card", "TH")]  # no face-down card under it
    assert cards["W0"] == [("card", "7C")]
    assert cards["W1"] == [("card", "QC")]
    assert cards["K0"] == [("card back", None)]
    assert cards["K1"] == [("card back", None)]
    assert cards["T"] == [("card", "6S")]
    counts = {name: int(group.get("data-count", "-1")) for name, group in groups.items()}
    assert counts["R0"] == 3 and counts["H1"] == 3 and counts["F1"] == 3 and counts["W0"] == 2
    assert counts["K0"] == len(state.hands[0]) and counts["T"] == 1


def test_hidden_false_shows_the_face_down_cards() -> None:
    state = known()
    cards = {
        name: drawn(g)
        for name, g in piles(svg.board(state, hidden=False, interactive=True)).items()
    }
    assert cards["R0"] == [("card down", "2C"), ("card down", "5D"), ("card", "8H")]
    hand = [str(card) for card in state.hands[0]]
    assert cards["K0"] == [("card down", t) for t in hand[:-1]] + [("card", hand[-1])]


def test_empty_piles_and_plain_pictures() -> None:
    text = svg.board(known())
    assert "data-pile" not in text  # only interactive pictures carry pile names
    assert text.count('class="pile"') == len(svg.PILE_NAMES)
    assert ">F2</text>" in text and ">H2</text>" in text  # empty slots are labelled


def visible(text: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', text))


def positions_of_games(every: int = 37) -> list[c.GameState]:
    out = []
    for rules, seed in (("classic", 1), ("serbian", 2), ("pagat", 3)):
        state = c.new_game(c.Ruleset.preset(rules), seed=seed)
        rng = Rng(seed)
        for step in range(400):
            if c.is_over(state):
                break
            if step % every == 0 or state.stop is not None:
                out.append(state)
            moves = c.legal_moves(state)
            state = c.apply(state, moves[rng.below(len(moves))])
        out.append(state)
    return out


@pytest.mark.parametrize("seat", [0, 1])
def test_no_hidden_card_leaks(seat: int) -> None:
    for state in positions_of_games():
        view = c.observe(state, seat)
        hidden = {str(card) for card in view.hidden_cards()}
        for text in (
            svg.board(view, interactive=True),
            svg.board(state, seat=seat, interactive=True),
            svg.board(state, seat=seat, arrows=c.legal_moves(state)),
        ):
            shown = visible(text)
            assert not shown & hidden
            assert shown <= {str(card) for card in view.visible_cards()}
            words = set(re.sub(r"<[^>]*>", " ", text).split())  # the visible text
            assert not words & hidden
        if not c.is_over(state):
            # The picture of a state with hidden cards is a function of the view alone.
            assert svg.board(state, seat=seat) == svg.board(view)


def test_every_face_up_top_card_is_drawn() -> None:
    for state in positions_of_games():
        shown = visible(svg.board(state))
        tops = [p[-1] for p in (*state.foundations, *state.wastes) if p]
        tops += [card for house in state.houses for card in house]
        for reserve, up in zip(state.reserves, state.reserve_up, strict=True):
            tops += reserve[len(reserve) - up :]
        tops += [state.turned] if state.turned is not None else []
        assert {str(card) for card in tops} <= shown


def test_viewpoint() -> None:
    state = known()
    view = c.observe(state, 1)
    assert 'aria-label="Russian Bank table seen by player 1"' in svg.board(view)
    assert svg.board(view) == svg.board(view, seat=1)
    assert svg.board(state) == svg.board(state, seat=0)
    assert svg.board(view, seat=0) != svg.board(view)

    def corner(text: str, name: str) -> tuple[float, float]:
        hit = next(r for r in piles(text)[name].iter(f"{NS}rect") if r.get("class") == "hit")
        return float(hit.get("x", "")), float(hit.get("y", ""))

    for seat in (0, 1):
        text = svg.board(state, seat=seat, interactive=True)
        assert corner(text, f"R{seat}")[1] > 500  # your reserve at the bottom
        assert corner(text, f"R{1 - seat}")[1] < 100
        assert corner(text, f"H{4 * seat + 1}")[1] > corner(text, f"H{4 * seat + 4}")[1]
    with pytest.raises(ValueError, match="seat"):
        svg.board(state, seat=2)
    with pytest.raises(TypeError):
        svg.board("not a position")  # type: ignore[arg-type]


def test_move_piles_match_what_apply_does() -> None:
    checked = 0
    for state in positions_of_games(every=4):
        for move in c.legal_moves(state):
            names = svg.move_piles(state, move)
            assert names == svg.move_piles(c.observe(state, 0), move)
            assert names == svg.move_piles(state, str(move))
            if not move.is_play:
                continue
            source, target = names or ("", "")
            after = c.apply(state, move)
            if move.target == c.FOUNDATION:
                grown = [
                    i for i in range(8) if len(after.foundations[i]) > len(state.foundations[i])
                ]
                if after.stop is None or c.is_over(after):
                    assert target == f"F{grown[0] + 1}"
                    checked += 1
            assert source[0] == {c.RESERVE: "R", c.HAND: "T", c.WASTE: "W"}.get(move.source, "H")
    assert checked > 20


def test_move_piles_names() -> None:
    state = known()  # player 0 to act
    assert svg.move_piles(state, c.DRAW) == ("K0", "T")
    assert svg.move_piles(state, c.DISCARD) == ("T", "W0")
    assert svg.move_piles(state, c.REVEAL) == ("R0", "R0")
    assert svg.move_piles(state, c.END_TURN) is None
    assert svg.move_piles(state, c.Move.play(c.HAND, c.OPP_WASTE)) == ("T", "W1")
    assert svg.move_piles(state, c.Move.play(c.RESERVE, c.OPP_RESERVE)) == ("R0", "R1")
    assert svg.move_piles(state, c.Move.play(0, 4, 2)) == ("H1", "H5")
    assert svg.move_piles(state, "H3-F") == ("H3", "F1")  # the 4S onto the 3S
    assert svg.move_piles(state, "H6-F") == ("H6", "F2")  # an Ace: the first empty pile
    assert svg.move_piles(c.observe(state, 1), "H6-F") == ("H6", "F2")
    assert svg.move_piles(state, "H1-F") == ("H1", "F")  # not legal: nothing takes the JC
    assert svg.move_piles(state, "H3-F", player=1) == ("H3", "F")  # not player 1's turn
    with pytest.raises(c.NotationError):
        svg.move_piles(state, "H9-F")


def test_last_move_and_arrows() -> None:
    state = c.new_game(seed=4)
    moves = c.legal_moves(state)
    text = svg.board(state, arrows=moves)
    root = parse(text)
    arrows = [g for g in root.iter() if g.get("class") == "arrow"]
    assert len(arrows) == len(moves)
    assert {(a.get("data-from"), a.get("data-to")) for a in arrows} == {
        svg.move_piles(state, m) for m in moves
    }
    assert "last-move" not in text and 'class="arrow"' not in svg.board(state)

    move = moves[0]
    after = c.apply(state, move)
    exact = svg.move_piles(state, move)
    assert exact is not None
    marked = parse(svg.board(after, last_move=exact))
    boxes = [r.get("data-pile") for r in marked.iter(f"{NS}rect") if r.get("class") == "highlight"]
    assert boxes == list(exact)
    # A Move alone: the foundation that took the card is no longer known, so "F" (all).
    marked = parse(svg.board(after, last_move=move))
    boxes = [r.get("data-pile") for r in marked.iter(f"{NS}rect") if r.get("class") == "highlight"]
    assert boxes == [exact[0], "F"]
    # After a discard the mover is the previous player.
    s = position(turned="5H", to_act=0, houses={0: "KS"}, fill_foundations=False)
    s2 = c.apply(s, c.DISCARD)
    marked = parse(svg.board(s2, last_move=c.DISCARD))
    boxes = [r.get("data-pile") for r in marked.iter(f"{NS}rect") if r.get("class") == "highlight"]
    assert boxes == ["T", "W0"]
    with pytest.raises(ValueError, match="pile name"):
        svg.board(state, last_move=("H9", "F1"))


def test_interactive_attributes() -> None:
    state = c.new_game(seed=4)
    root = parse(svg.board(state, interactive=True))
    assert root.get("data-seat") == "0" and root.get("data-to-act") == str(state.to_act)
    for name, group in piles(svg.board(state, interactive=True)).items():
        hit = [r for r in group.iter(f"{NS}rect") if r.get("class") == "hit"]
        assert len(hit) == 1 and hit[0].get("pointer-events") == "all", name
    faces = [g for g in root.iter(f"{NS}g") if g.get("class") == "card"]
    assert faces and all(g.get("data-card") for g in faces)


def test_pictures_are_deterministic_and_self_contained() -> None:
    state = c.new_game(seed=9)
    again = c.parse_position(c.format_position(state))
    assert svg.board(state, arrows=c.legal_moves(state)) == svg.board(
        again, arrows=c.legal_moves(again)
    )
    text = svg.board(state, interactive=True, hidden=False)
    for forbidden in ("href", "url(", "<script", "<image", "<style", "http://www.w3.org/1999"):
        assert forbidden not in text
    assert re.findall(r'\sid="', text) == []  # no ids: many pictures may share one page
    small = parse(svg.board(state, width=450))
    assert small.get("width") == "450" and small.get("viewBox") == parse(text).get("viewBox")
    with pytest.raises(ValueError, match="width"):
        svg.board(state, width=0)


def test_card() -> None:
    seven = parse(svg.card("7H"))
    assert seven.get("width") == "72" and seven.get("height") == "100.8"
    face = next(g for g in seven.iter(f"{NS}g") if g.get("data-card"))
    assert face.get("data-card") == "7H" and face.get("fill") == "#c8102e"
    assert next(g for g in parse(svg.card(c.Card("Qs"))).iter(f"{NS}g")).get("fill") == "#1a1a1a"
    back = parse(svg.card(None, width=36))
    assert back.get("width") == "36" and "data-card" not in svg.card(None)
    assert svg.card(c.Card("7H")) == svg.card("7H") == svg.card(int(c.Card("7H")))
    with pytest.raises(c.NotationError):
        svg.card("7X")


def test_repr_hooks() -> None:
    state = c.new_game(seed=2)
    view = c.observe(state, 1)
    assert state._repr_svg_() == state._repr_html_() == svg.board(state)
    assert view._repr_svg_() == view._repr_html_() == svg.board(view)
    parse(view._repr_svg_())


def test_import_crapette_does_not_load_svg() -> None:
    code = "import sys, crapette; print('crapette.svg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_show_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = tmp_path / "full.svg"
    public = tmp_path / "public.svg"
    assert main(["show", "--deal-seed", "3", "--svg", str(full)]) == 0
    assert main(["show", "--deal-seed", "3", "--public", "1", "--svg", str(public)]) == 0
    assert "player 1" in capsys.readouterr().out  # the text board is still printed
    state = c.new_game(seed=3)
    assert full.read_text("utf-8") == svg.board(state, hidden=False) + "\n"
    assert public.read_text("utf-8") == svg.board(c.observe(state, 1)) + "\n"


DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_doc_pictures_are_current() -> None:
    script = DOCS / "gen_pictures.py"
    if not script.exists():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    spec = importlib.util.spec_from_file_location("gen_pictures", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pictures = module.pictures()
    assert sorted(p.name for p in (DOCS / "pictures").glob("*.svg")) == sorted(pictures)
    pages = "".join(p.read_text("utf-8") for p in DOCS.glob("*.md"))
    for name, text in pictures.items():
        parse(text)
        stale = (DOCS / "pictures" / name).read_text("utf-8") != text
        assert not stale, f"docs/pictures/{name} is stale: run python docs/gen_pictures.py"
        assert f"(pictures/{name})" in pages, f"docs/pictures/{name} is shown on no page"


def test_tarot_faces_are_drawn_not_only_lettered() -> None:
    knight = svg.card("NH")
    assert 'class="figure"' in knight and 'data-card="NH"' in knight  # the horse's head
    trump = svg.card("17M")
    assert 'class="emblem"' in trump and ">17<" in trump  # the star and the large number
    assert 'class="emblem"' in svg.card("0M")  # the Excuse is trump 0
    assert 'class="figure"' not in svg.card("KD") and 'class="emblem"' not in svg.card("KD")


def test_a_tarot_table_has_ten_foundations() -> None:
    state = c.new_game(c.Ruleset.preset("tarot"), seed=2)
    picture = svg.board(state, interactive=True)
    assert 'data-pile="F9"' in picture and 'data-pile="F10"' in picture
    plain = svg.board(c.new_game(seed=2), interactive=True)
    assert 'data-pile="F8"' in plain and 'data-pile="F9"' not in plain
