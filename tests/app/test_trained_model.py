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
