"""Every rule variant, traced to its seed: judge scenarios plus engine-level play-throughs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from random_budget import budget, run_seeds
from tuolaji.cards import parse_card, parse_cards
from tuolaji.engine.actions import Bury, CallFriend, Deal, Declare, Pass, Play, Redeal, TimeUp
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase, Round, find_friend
from tuolaji.engine.simulate import deck_from_hands, random_action, random_match
from tuolaji.errors import IllegalAction
from tuolaji.judge import handle
from tuolaji.record import dumps, loads
from tuolaji.ruleset import LEVEL_TOKENS, PRESETS, RuleSet, RuleSetError, load_rules
from tuolaji.tricks import is_sub_multiset

SCENARIOS = json.loads((Path(__file__).parent / "variant_scenarios" / "judge_variants.json").read_text("utf-8"))


@pytest.mark.parametrize("case", SCENARIOS, ids=[c["name"] for c in SCENARIOS])
def test_judge_variant_scenario(case: dict) -> None:
    assert case["seed"] and case["quote"]
    got = handle({"id": 1, **case["request"]})
    assert "error" not in got, got
    for key, value in case["expect"].items():
        assert got[key] == value, (key, got)


# ---------------------------------------------------------------- helpers
FILL = [c for c in range(54)]


def make_hands(wanted: list[str], *, rules: RuleSet, kitty: str = "") -> tuple[list[list[int]], list[int]]:
    """Hands that start with the wanted cards; the rest of the decks are spread to fill them."""
    size = rules.hand_size_value
    hands = [parse_cards(w) for w in wanted]
    pool = [c for _ in range(rules.decks) for c in range(54)]
    for h in hands:
        for c in h:
            pool.remove(c)
    k = parse_cards(kitty)
    for c in k:
        pool.remove(c)
    rng = random.Random(7)
    rng.shuffle(pool)
    for h in hands:
        while len(h) < size:
            h.append(pool.pop())
    while len(k) < rules.kitty_size_value:
        k.append(pool.pop())
    return hands, k


def dealt_round(rules: RuleSet, wanted: list[str], *, dealer: int | None, level: int = 2, kitty: str = "") -> Round:
    hands, k = make_hands(wanted, rules=rules, kitty=kitty)
    rnd = Round(rules=rules, deck=deck_from_hands(hands, k, start_seat=dealer or 0), level=level, dealer=dealer)
    while rnd.phase == Phase.DEAL:
        rnd.apply(Deal())
    return rnd


def pass_all(rnd: Round) -> None:
    while rnd.phase in (Phase.DECLARE, Phase.OVERRIDE):
        assert rnd.turn is not None
        rnd.apply(Pass(rnd.turn))


# ---------------------------------------------------------------- declaring
def test_override_after_bury_takes_the_kitty_and_keeps_the_dealer() -> None:
    """Seed 004: 反主炒底……反主玩家还可拿起庄家盖的底牌……然后再进行盖底牌……此时庄家不变"""
    rules = RuleSet(override_after_bury=True)
    rnd = dealt_round(rules, ["H2", "S2 S2", "", ""], dealer=0)
    rnd.apply(Declare(0, (parse_card("H2"),)))
    pass_all_declare(rnd)
    assert rnd.phase == Phase.BURY and rnd.turn == 0
    buried = tuple(rnd.hands[0][:8])
    rnd.apply(Bury(0, buried))
    assert rnd.phase == Phase.OVERRIDE and rnd.turn == 1
    with pytest.raises(IllegalAction) as err:
        rnd.apply(Declare(1, (parse_card("S2"),)))  # a single cannot override after the bury
    assert err.value.code == "override_needs_pair"
    rnd.apply(Declare(1, parse_card_tuple("S2 S2")))
    assert rnd.phase == Phase.BURY and rnd.turn == 1 and rnd.trump == 0
    assert all(c in rnd.hands[1] for c in buried)  # the overrider picked up the dealer's kitty
    rnd.apply(Bury(1, tuple(rnd.hands[1][:8])))
    assert rnd.phase == Phase.OVERRIDE and rnd.turn == 2
    pass_all(rnd)
    assert rnd.phase == Phase.PLAY and rnd.turn == 0 and rnd.dealer == 0 and rnd.burier == 1
    assert rnd.overrides == 1


def pass_all_declare(rnd: Round) -> None:
    while rnd.phase == Phase.DECLARE:
        assert rnd.turn is not None
        rnd.apply(Pass(rnd.turn))


def parse_card_tuple(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def test_override_after_bury_not_in_the_first_round() -> None:
    """Seed 000 C: 反主炒底：除游戲第一局外，反主可在莊家蓋底牌後……進行"""
    rules = RuleSet(override_after_bury=True)
    rnd = dealt_round(rules, ["H2", "", "", ""], dealer=None)
    rnd.apply(Declare(0, (parse_card("H2"),)))
    pass_all_declare(rnd)
    rnd.apply(Bury(0, tuple(rnd.hands[0][:8])))
    assert rnd.phase == Phase.PLAY


def test_no_declaration_uses_the_kitty_third_card_and_a_joker_means_no_trump() -> None:
    """Seed 004: 无人报主……从底牌中抽取正数第三张牌的花色作为该局的主花色若第三张为常主则该局游戲为无主"""
    rules = RuleSet(no_declaration="kitty_third")
    rnd = dealt_round(rules, ["", "", "", ""], dealer=1, level=14, kitty="C3 D4 S9")
    pass_all_declare(rnd)
    assert rnd.trump == 0
    rnd = dealt_round(rules, ["", "", "", ""], dealer=1, level=14, kitty="C3 D4 BJ")
    pass_all_declare(rnd)
    assert rnd.ctx is not None and rnd.ctx.trump is None


def test_no_declaration_default_uses_the_first_non_joker_kitty_card() -> None:
    """Seed 003: 如摸牌結束仍無人揭牌，則以底牌第一張的花色作為主花色，若第一張為王，則順次翻看"""
    rnd = dealt_round(RuleSet(), ["", "", "", ""], dealer=2, level=14, kitty="LJ BJ D4 S9")
    pass_all_declare(rnd)
    assert rnd.trump == 3 and rnd.phase == Phase.BURY and rnd.turn == 2


def test_first_round_without_declaration_is_dealt_again() -> None:
    rnd = dealt_round(RuleSet(), ["", "", "", ""], dealer=None, level=14)
    pass_all_declare(rnd)
    assert rnd.phase == Phase.DONE and rnd.redeal


def test_redeal_request_by_a_weak_attacker() -> None:
    """Seed 000 C: 當對家玩家中有人手裡的牌少於15分，則可「暴動」，即重新洗牌摸牌。此時莊家不變。"""
    rules = RuleSet(redeal_request=True)
    hands, kitty = make_hands(["", "", "", ""], rules=rules)
    # give seat 1 (an attacker, dealer 0) a hand with no points at all
    pool = [c for h in hands for c in h] + kitty
    zero = [c for c in pool if c < 52 and (c % 13 + 2) not in (5, 10, 13)][:25]
    for c in zero:
        pool.remove(c)
    hands = [pool[:25], zero, pool[25:50], pool[50:75]]
    kitty = pool[75:]
    m = Match(rules=rules, deals=[deck_from_hands(hands, kitty)])
    m.dealer = 0
    m.round = Round(rules=rules, deck=deck_from_hands(hands, kitty), level=2, dealer=0)
    while m.round.phase == Phase.DEAL:
        m.apply(Deal())
    with pytest.raises(IllegalAction):
        m.apply(Redeal(0))  # the dealer's side may not, and it is not seat 0's call anyway
    m.apply(Pass(0))
    m.apply(Redeal(1))
    assert m.rounds[-1].redeal and m.dealer == 0 and m.round.dealer == 0


def test_redeal_refused_with_points_in_hand() -> None:
    rules = RuleSet(redeal_request=True)
    rnd = dealt_round(rules, ["", "SK SK H10 H10", "", ""], dealer=0)
    rnd.apply(Pass(0))
    with pytest.raises(IllegalAction) as err:
        rnd.apply(Redeal(1))
    assert err.value.code == "no_redeal"


def test_joker_backed_declaring_in_the_engine() -> None:
    rules = PRESETS["bianfeng-fixed"]
    rnd = dealt_round(rules, ["S2 LJ", "H2 H2 BJ", "", ""], dealer=None)
    with pytest.raises(IllegalAction):
        rnd.apply(Declare(0, parse_card_tuple("S2")))
    rnd.apply(Declare(0, parse_card_tuple("S2 LJ")))
    rnd.apply(Declare(1, parse_card_tuple("H2 H2 BJ")))
    pass_all_declare(rnd)
    assert rnd.dealer == 1 and rnd.trump == 1  # 反主反打: the overrider deals in the first round


# ---------------------------------------------------------------- find a friend
def test_find_friend_rules() -> None:
    """Seeds 000, 001: 如果莊家自己有其中一張，則拿到另外一張的玩家為其對家，如果庄自己沒有該牌，則按出牌順序，
    靠近莊家的有該牌的玩家和他是對家，如果莊家自己拿到2張該牌，則莊家一打三。"""
    ha = parse_card("HA")
    hands = [[ha], [], [ha], []]
    assert find_friend(hands, 0, ha, 4) == 2
    hands = [[], [], [ha], [ha]]
    assert find_friend(hands, 1, ha, 4) == 2  # nearest after the dealer in play order
    assert find_friend(hands, 3, ha, 4) == 2  # seat 3 holds one: the other copy's holder
    hands = [[ha, ha], [], [], []]
    assert find_friend(hands, 0, ha, 4) is None  # one against three


def test_find_friend_is_revealed_when_the_card_is_played() -> None:
    rules = PRESETS["bianfeng-friend"]
    rnd = dealt_round(rules, ["S2 LJ", "", "", "CA"], dealer=None)
    rnd.apply(Declare(0, parse_card_tuple("S2 LJ")))
    pass_all_declare(rnd)
    rnd.apply(Bury(0, tuple(c for c in rnd.hands[0] if c != parse_card("CA"))[:8]))
    assert rnd.phase == Phase.CALL_FRIEND
    rnd.apply(CallFriend(0, parse_card("CA")))
    friend = rnd.friend
    assert friend is not None and friend != 0 and not rnd.friend_revealed
    view = rnd_view(rnd, 1)
    assert view["dealer_side"] == [0]  # nobody knows the friend yet
    rng = random.Random(3)
    from tuolaji.engine.legal import legal_plays

    while rnd.phase == Phase.PLAY and not rnd.friend_revealed:
        seat = rnd.turn
        assert seat is not None
        plays = list(legal_plays(rnd, seat))
        with_card = [p for p in plays if parse_card("CA") in p]
        rnd.apply(Play(seat, with_card[0] if seat == friend and with_card else rng.choice(plays)))
    assert rnd.friend_revealed and sorted(rnd_view(rnd, 1)["dealer_side"]) == sorted([0, friend])


def rnd_view(rnd: Round, seat: int) -> dict:
    from tuolaji.engine.view import round_view

    return round_view(rnd, seat)


def test_find_friend_levels_are_kept_per_player() -> None:
    m = random_match(Match(rules=PRESETS["bianfeng-friend"], seed=5), random.Random(5), max_rounds=6)
    assert len(m.levels) == 4
    for r in m.rounds:
        if r.result:
            assert r.dealer in r.result.dealer_side and len(r.result.dealer_side) in (1, 2)


# ---------------------------------------------------------------- match end
def finish_with(m: Match, team_points: int) -> None:
    """Helper: drive a real round to its end by random play, then check level bookkeeping only."""
    random_match(m, random.Random(team_points), max_rounds=len(m.rounds) + 1)


def test_wrap_past_ace() -> None:
    """Seed 004: 当一方升级超过A后则再次循环箌2开始继续升级。"""
    m = Match(rules=RuleSet(match_end="wrap", start_level="K"), seed=1)
    random_match(m, random.Random(1), max_rounds=30)
    assert not m.over and all(0 <= lv <= 12 for lv in m.levels)


def test_fixed_rounds_tie_goes_to_who_reached_it_first() -> None:
    """Seed 003: 在規定時間內，哪方的級別高哪方獲勝，如到了規定時間，雙方級數相同，則先到該級的一方勝出。"""
    m = Match(rules=RuleSet(match_end="fixed_rounds", match_rounds=1), seed=1)
    m.levels = [3, 3]
    m.reached = [0, 0]
    m.reached[1] = -1  # team B got to 3 first
    assert m._leader() == 1
    random_match(m, random.Random(2))
    assert m.over and len([r for r in m.rounds if r.result]) == 1


def test_timed_match_ends_at_the_deadline_mid_round() -> None:
    """Seed 003: 在規定時間內，哪方的級別高哪方獲勝，如到了規定時間，雙方級數相同，則先到該級的一方勝出。
    The levels at the deadline decide: the round in play is left unscored."""
    with pytest.raises(IllegalAction):
        Match(seed=1).apply(TimeUp())
    m = random_match(Match(rules="competition", seed=4), random.Random(4), max_rounds=2)
    rnd = m.round
    rng = random.Random(5)
    while rnd.phase == Phase.DEAL or not rnd.tricks:  # well into the next round
        m.apply(random_action(rnd, rng))
    levels = list(m.levels)
    m.apply(TimeUp())
    assert m.over and m.winner == m._leader() and m.levels == levels and m.round is rnd and rnd.result is None
    with pytest.raises(IllegalAction, match="over"):
        m.apply(TimeUp())
    again = loads(dumps(m))
    assert again.over and again.winner == m.winner and again.levels == levels


def test_must_defend_stops_the_climb() -> None:
    m = Match(rules=RuleSet(must_defend=("5",)), seed=1)
    m.levels = [1, 0]  # team A at 3
    m._climb(0, 3, as_dealer=True)
    assert m.levels[0] == 3  # stopped at 5 (index 3)
    m._climb(0, 2, as_dealer=False)
    assert m.levels[0] == 3  # attackers cannot leave a must-defend level
    m._climb(0, 2, as_dealer=True)
    assert m.levels[0] == 5


# ---------------------------------------------------------------- throw penalty
def test_points_penalty_for_a_failed_throw() -> None:
    rules = RuleSet(throw_penalty="points", throw_penalty_points=10)
    # seat 0 (dealer) throws S A + S K while seat 1 holds S A: the throw fails
    rnd = dealt_round(rules, ["H2 SA SK", "SA", "", ""], dealer=0)
    rnd.apply(Declare(0, parse_card_tuple("H2")))
    pass_all_declare(rnd)
    keep = set(parse_cards("H2 SA SK"))
    rnd.apply(Bury(0, tuple([c for c in rnd.hands[0] if c not in keep][:8])))
    rnd.apply(Play(0, parse_card_tuple("SA SK")))
    assert rnd.failed_throws[0] == 1 and rnd.trick is not None and rnd.trick.plays[0] == (parse_card("SK"),)
    rng = random.Random(1)
    from tuolaji.engine.legal import random_play

    while rnd.phase == Phase.PLAY:
        assert rnd.turn is not None
        rnd.apply(Play(rnd.turn, random_play(rnd, rnd.turn, rng)))
    assert rnd.result is not None and rnd.result.penalty_points == 10


# ---------------------------------------------------------------- presets
def test_presets_load_from_files_and_round_trip() -> None:
    for name, rules in PRESETS.items():
        assert rules.name == name and rules.description
        assert RuleSet.from_dict(json.loads(rules.to_json())) == rules
        assert load_rules({"preset": name}) == rules


def test_bad_settings_are_named() -> None:
    with pytest.raises(RuleSetError, match="decks"):
        RuleSet(decks=5)
    with pytest.raises(RuleSetError, match="frobnicate"):
        RuleSet.from_dict({"frobnicate": 1})
    with pytest.raises(RuleSetError, match="match_minutes"):
        RuleSet(match_end="timed")


PRESET_BUDGET = 10.0  # seconds per preset, fresh seeds every run (tests/random_budget.py)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_random_matches(name: str) -> None:
    """Random matches of every preset (checked actions): cards and points are conserved."""
    rules = PRESETS[name]
    cap = 12 if rules.decks >= 3 or rules.match_end == "wrap" else 400

    def play(seed: int) -> None:
        m = random_match(Match(rules=rules, seed=seed), random.Random(seed), max_rounds=cap)
        for r in m.rounds:
            played = [c for t in r.tricks for p in t.plays for c in p]
            if r.result is None:
                continue
            assert sorted(played + list(r.kitty)) == sorted(r.deck)
            assert sum(t.points for t in r.tricks) + r.result.kitty_points == 100 * rules.decks
        assert loads(dumps(m)).levels == m.levels

    run_seeds(f"random {name} matches", play, seconds=budget(PRESET_BUDGET), minimum=3)


# ---------------------------------------------------------------- engine scenarios as data
ENGINE_SCENARIOS = json.loads((Path(__file__).parent / "variant_scenarios" / "engine_variants.json").read_text("utf-8"))
SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def _trump_name(rnd: Round) -> str:
    return "NT" if rnd.trump is None else "SHCD"[rnd.trump]


@pytest.mark.parametrize("case", ENGINE_SCENARIOS, ids=[c["name"] for c in ENGINE_SCENARIOS])
def test_engine_variant_scenario(case: dict) -> None:
    """A round dealt from the given hands, driven step by step; refusals name their reason."""
    assert case["seed"] and case["quote"]
    rules = load_rules(case["rules"])
    level = LEVEL_TOKENS.index(case["level"]) + 2
    rnd = dealt_round(rules, case["hands"], dealer=case["dealer"], level=level, kitty=case["kitty"])
    for step in case["steps"]:
        if "declare" in step:
            action: Declare | Pass | Bury = Declare(step["declare"], parse_card_tuple(step["cards"]))
        elif "pass" in step:
            action = Pass(step["pass"])
        elif "deal_declare" in step:  # declare during the deal: deal again from the same hands
            deal = dealt_round(rules, case["hands"], dealer=case["dealer"], level=level, kitty=case["kitty"])
            rnd = Round(rules=rules, deck=deal.deck, level=level, dealer=case["dealer"])
            while rnd.phase == Phase.DEAL and not is_sub_multiset(parse_cards(step["cards"]), rnd.hands[step["deal_declare"]]):
                rnd.apply(Deal())
            action = Declare(step["deal_declare"], parse_card_tuple(step["cards"]))
        elif "pass_declaring" in step:
            pass_all_declare(rnd)
            continue
        elif "bury" in step:
            seat = step["bury"]
            rest = list(rnd.hands[seat])
            for c in parse_cards(step["keep"]):
                rest.remove(c)
            first = parse_cards(step.get("bury_first", ""))
            for c in first:
                rest.remove(c)
            action = Bury(seat, tuple((first + rest)[: rules.kitty_size_value]))
        else:
            want = step["expect"]
            got = {"phase": rnd.phase.value, "turn": rnd.turn, "trump": _trump_name(rnd), "dealer": rnd.dealer}
            assert {k: got[k] for k in want} == want
            continue
        if "refused" in step:
            before = rnd.copy()
            with pytest.raises(IllegalAction) as err:
                rnd.apply(action)
            assert err.value.code == step["refused"]
            assert rnd.hands == before.hands and rnd.phase == before.phase and rnd.bid == before.bid
        else:
            rnd.apply(action)


def test_engine_and_judge_scenario_quotes_are_in_the_seeds() -> None:
    if not SEEDS.is_dir():
        pytest.skip("seed texts not checked out next to the repository")
    texts = {p.name[:3]: "".join(p.read_text("utf-8").split()) for p in SEEDS.glob("*.txt")}
    for case in ENGINE_SCENARIOS + SCENARIOS:
        assert "".join(case["quote"].split()) in texts[case["seed"][:3]], case["name"]


def test_joker_level_after_ace() -> None:
    """Seed 000 H: 當一方升級超過A後，打王，即無主，或者直接循環到2開始繼續升級。"""
    from tuolaji.engine.match import RoundStarted
    from tuolaji.scoring import level_name
    from tuolaji.trump import JOKER_LEVEL, TRUMP, TrumpContext

    ctx = TrumpContext(JOKER_LEVEL, None)
    assert [c for c in range(54) if ctx.eff[c] == TRUMP] == [52, 53]  # only the jokers are trumps
    assert ctx.order[parse_card("SA")] == 12 and ctx.order[parse_card("S2")] == 0  # 2 is a plain card
    assert level_name(13) == "王"
    for end in ("pass_ace", "wrap"):
        match = random_match(
            Match(rules=RuleSet(joker_level=True, start_level="A", match_end=end), seed=4), random.Random(4), max_rounds=40
        )
        joker_rounds = [r for r in match.rounds if r.level == JOKER_LEVEL and r.result is not None]
        assert joker_rounds, "someone played the 王 level"
        assert all(r.ctx is not None and r.ctx.trump is None for r in joker_rounds)
        started = [e for e in match.events if isinstance(e, RoundStarted)]
        assert max(e.level for e in started) == JOKER_LEVEL
        if end == "pass_ace":
            assert match.over and match.levels[match.winner] == 14  # won by going past 王
        else:
            assert not match.over and any(e.level == 2 for e in started[1:])  # past 王 starts again at 2


def test_without_joker_level_past_ace_wins() -> None:
    match = random_match(Match(rules=RuleSet(start_level="A"), seed=4), random.Random(4), max_rounds=40)
    assert match.over and all(r.level <= 14 for r in match.rounds)


def test_match_ends_when_a_side_reaches_the_target_level() -> None:
    """Seed 004 appendix: 每轮比赛打30分钟或者一方先打到6结束结束时，按等级高底判定胜负"""
    from tuolaji.engine.match import MatchEnded

    six = LEVEL_TOKENS.index("6")
    for seed in range(3):
        match = random_match(Match(rules="kq-competition", seed=seed), random.Random(seed), max_rounds=200)
        assert match.over and match.winner is not None
        assert match.levels[match.winner] >= six  # reached 6 (the clock never ran out here)
        assert sum(1 for e in match.events if isinstance(e, MatchEnded)) == 1
        before_last = [r for r in match.rounds if r.result is not None][:-1]
        assert before_last  # no side had reached 6 before the last scored round
    with pytest.raises(RuleSetError, match="match_target_level"):
        RuleSet(match_target_level="2")
    with pytest.raises(RuleSetError, match="match_target_level"):
        RuleSet(match_target_level=6)  # type: ignore[arg-type]
