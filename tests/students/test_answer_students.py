"""Simulated students on the output checker (issue 20's measure): every preset of up to 10
tokens, 1, 2 and 4 heads, √d and the mask on and off, every query, one head asked about.

Honest students compute the output by hand with a sample of every rounding habit
(attention_core.honest); slipped students forget √d or add it, divide by d_k, forget or add the
mask, skip softmax, divide the scores by their sum, type the weights, or give another head's
output, each with the same habits. Targets: honest answers accepted ≥ 99.5 % and never told a
slip; a slip never accepted where its exact numbers lie outside what honest work can write, and
named for what it is ≥ 97 % there; an output computed right from the student's own (wrong)
weights, typed beside it, credited every time."""
import itertools

import numpy as np

from attention_core import PRESETS
from attention_core.answer import judge, parse_vector, view_bands
from attention_core.attention import attention, split_heads
from attention_core.honest import DECIMALS, DIGITS, divisors, inside, significant
from attention_core.honest import rounded_in_turn as kept
from hand_work import typed

PRESETS_SMALL = [p for p in PRESETS.values() if len(p.tokens) <= 10]


def by_hand(scores, values, visible, habit, *, divide, softmax=True, by_sum=False):
    """One student's output: scores (m,) ÷ `divide` (None: not divided), kept; eˣ written; weights
    kept; Σ wᵢvᵢ kept."""
    keep_scaled, digits, keep_weights, keep_output = habit
    scaled = kept(scores if divide is None else scores / divide, keep_scaled)[visible]
    if by_sum:
        with np.errstate(invalid="ignore", divide="ignore"):
            weights = scaled / scaled.sum()
    elif softmax:
        exps = significant(np.exp(scaled), digits)
        weights = exps / exps.sum()
    else:
        weights = scaled
    weights = kept(weights, keep_weights)
    return kept(weights @ values[visible], keep_output), weights


def views():
    for preset in PRESETS_SMALL:
        for heads in (1, 2, 4):
            if heads not in preset.offered_heads():
                continue
            for scale, causal in itertools.product((True, False), repeat=2):
                for query in range(len(preset.tokens)):
                    yield preset, heads, scale, causal, query


HABITS = list(itertools.product(DECIMALS, DIGITS, DECIMALS, DECIMALS))


def test_honest_outputs_are_accepted_and_slips_are_named_and_never_accepted():
    honest = honest_right = honest_slip = 0
    slips = slips_accepted = nameable = named = from_weights = credited = 0
    missed = []
    for (preset, heads, scale, causal, query), pick in zip(views(), itertools.count()):
        result = attention(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal)
        d_k = preset.q.shape[1] // heads
        values_all = split_heads(np.asarray(preset.v, dtype=float), heads)
        head = pick % heads
        scores, values = result.scores[head, query], values_all[head]
        n = len(scores)
        masked = np.arange(n) <= query
        visible = masked if causal else np.ones(n, dtype=bool)
        bands = view_bands(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal, query=query)
        # check_answer, with the view's bands made once
        check = lambda text: judge(parse_vector(text), bands, result.output, values_all, query=query,  # noqa: E731
                                   head=head, all_heads=False, causal=causal)
        roots = divisors(d_k)
        for k, habit in enumerate(HABITS[pick % 7::37]):  # about 10 habits a view
            root = roots[k % len(roots)] if scale else None
            output, weights = by_hand(scores, values, visible, habit, divide=root)
            verdict = check(typed(output))
            honest += 1
            honest_right += verdict.status in ("correct", "rounded")
            honest_slip += verdict.slip not in ("", "recheck", "recheck_output")
            if verdict.status not in ("correct", "rounded"):
                missed.append(("honest", preset.name, heads, scale, causal, query, habit, typed(output), verdict.key))
            other_root = roots[k % len(roots)]
            made = {
                ("forgot_scale" if scale else "extra_scale"): by_hand(scores, values, visible, habit,
                                                                       divide=None if scale else other_root)[0],
                ("forgot_mask" if causal else "extra_mask"): by_hand(scores, values, np.ones(n, dtype=bool) if causal
                                                                     else masked, habit, divide=root)[0],
                "skipped_softmax": by_hand(scores, values, visible, habit, divide=root, softmax=False)[0],
                "sum_not_softmax": by_hand(scores, values, visible, habit, divide=root, by_sum=True)[0],
                "weights_not_output": _full(weights, visible),
            }
            if scale:
                made["divided_by_d"] = by_hand(scores, values, visible, habit, divide=d_k)[0]
            if heads > 1:
                other = (head + 1) % heads
                made["other_head"] = by_hand(result.scores[other, query], values_all[other], visible, habit, divide=root)[0]
            truth_band = bands[head]["truth"]
            # the same slips with the student's own weights typed beside the output: credited
            for wrong_divide, wrong_visible in ((None if scale else other_root, visible),
                                                (root, np.ones(n, dtype=bool) if causal else masked))[:1 + (k % 4 == 0)]:
                answer, typed_w = by_hand(scores, values, wrong_visible, habit, divide=wrong_divide)
                verdict = judge(parse_vector(typed(answer)), bands, result.output, values_all, query=query, head=head,
                                all_heads=False, causal=causal, weights=_full(typed_w, wrong_visible))
                from_weights += 1
                credited += verdict.status in ("carried", "rounded", "correct")
                if verdict.status not in ("carried", "rounded", "correct"):
                    missed.append(("weights", preset.name, heads, scale, causal, query, typed(answer), verdict.key))
            for slip, answer in made.items():
                if answer is None or not np.all(np.isfinite(answer)):
                    continue
                slips += 1
                verdict = check(typed(answer))
                if inside(answer, *truth_band):
                    continue  # honest work can write the same numbers: nothing to tell apart
                nameable += 1
                if verdict.status in ("correct", "rounded"):
                    slips_accepted += 1
                    missed.append(("accepted", slip, preset.name, heads, scale, causal, query, typed(answer)))
                hit = slip == verdict.slip or slip in verdict.values.get("also", "").split(",")
                named += hit
                if not hit:
                    missed.append(("named", slip, verdict.slip, preset.name, heads, scale, causal, query, typed(answer)))
    print(f"honest: {honest_right} of {honest} accepted, {honest_slip} told a slip; slips: {nameable} of {slips} "
          f"outside the honest band, {named} named right, {slips_accepted} accepted; outputs from the student's own "
          f"weights: {credited} of {from_weights} credited")
    assert honest_right >= 0.995 * honest, [m for m in missed if m[0] == "honest"][:5]
    assert honest_slip == 0
    assert slips_accepted <= 0.001 * nameable, [m for m in missed if m[0] == "accepted"][:5]
    assert named >= 0.97 * nameable, [m for m in missed if m[0] == "named"][:10]
    assert credited == from_weights, [m for m in missed if m[0] == "weights"][:5]


def _full(weights, visible):
    out = np.zeros(len(visible))
    out[visible] = weights
    return out
