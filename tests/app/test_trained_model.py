"""The trained model as the page shows it (app.trained_model): its captions' claims."""
from attention_core import grammar
from attention_core.trained import MEASURED, measure, step_folders
from support import ROOT

TRAINED = ROOT / "attention_core" / "data" / "tiny-korean"


def test_every_caption_s_claim_is_what_the_held_out_sentences_give_at_every_step():
    """A head's caption claims a role (app.trained_model.claims) only where a fresh measurement on
    all held-out sentences gives that role's word at least CLAIM_SHARE of the predicate's weight,
    more than either other role; a head with such a share is never left without its claim."""
    from app.trained_model import CLAIM_SHARE, claims

    _, held_out = grammar.split()
    steps = step_folders(TRAINED)
    for step, folder in steps:
        measured = measure(folder, held_out)["heads"]
        claimed = {(c["layer"], c["head"]): c for c in claims(step)}
        for layer, row in enumerate(measured[MEASURED[0]]):
            for head in range(len(row)):
                shares = {role: measured[role][layer][head] for role in MEASURED}
                strong = [role for role, share in shares.items() if share >= CLAIM_SHARE]
                if (layer, head) not in claimed:
                    assert not strong, (step, layer, head, shares)
                    continue
                claim = claimed[(layer, head)]
                assert shares[claim["role"]] >= CLAIM_SHARE, (step, claim, shares)
                assert all(shares[claim["role"]] > share for role, share in shares.items() if role != claim["role"])
                assert abs(claim["share"] - shares[claim["role"]]) < 0.02, (step, claim, shares)
    # what was learned shows at the end: the last step claims at least one role, the first none
    assert claims(steps[-1][0]) and not claims(steps[0][0])


def test_each_claim_carries_what_the_sentence_on_show_gives_the_word_of_its_role():
    """The caption never reads as a claim about the sentence on screen: beside the held-out average
    it shows the weight this sentence's predicate gives the word of that role (or says it has none)."""
    from app.trained_model import claims, default_training_entries, training_entries
    from attention_core.grammar import role_of
    entries, sets = default_training_entries()
    for entry in entries:
        aset, _ = sets[entry["name"]]
        step = entry["training"]["step"]
        assert [{k: c[k] for k in ("layer", "head", "role", "share")} for c in entry["training"]["claims"]] == claims(step)
        predicate = next(i for i, piece in enumerate(aset.pieces) if role_of(piece) == "predicate")
        for claim in entry["training"]["claims"]:
            key = aset.pieces.index(claim["word"])
            assert role_of(claim["word"]) == claim["role"]
            assert claim["here"] == aset.layer_weights(claim["layer"])[claim["head"]][predicate][key]
    # the step-2000 time head: 0.54 on average, far less on the opening sentence (the page shows both)
    time_head = next(c for c in entries[-1]["training"]["claims"] if c["role"] == "time")
    assert time_head["word"] == "어제" and time_head["here"] < time_head["share"] - 0.3
    typed, _ = training_entries("나는 학교에서 밥을 먹었다")  # no time word
    missing = next(c for c in typed[-1]["training"]["claims"] if c["role"] == "time")
    assert missing["word"] is None and missing["here"] is None


def test_the_trained_model_opens_on_the_head_its_sentence_bears_out_best():
    """Not on layer 1 head 1, which learned nothing it can claim: on the claimed head to whose word
    the opening sentence's predicate gives the most weight, at every step (the slider keeps it)."""
    from app.trained_model import default_training_entries
    entries, sets = default_training_entries()
    final = entries[-1]
    best = max((c for c in final["training"]["claims"] if c["here"] is not None), key=lambda c: c["here"])
    assert {entry["opens"]["layer"] for entry in entries} == {best["layer"]}
    assert {entry["opens"]["head"] for entry in entries} == {best["head"]}
    # measured: that head's predicate looks most at the claimed word, more than any head claims elsewhere
    aset, _ = sets[final["name"]]
    row = aset.layer_weights(best["layer"])[best["head"]][aset.pieces.index("만났다")]
    assert aset.pieces[int(row.argmax())] == best["word"] == "나는" and row.max() > 0.8
    assert best["here"] > max(c["here"] for c in final["training"]["claims"] if c is not best) + 0.3
