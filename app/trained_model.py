"""The small Korean model trained here (attention_core.training), shipped with the app: its saved
steps as model entries, one per step, so a slider can show attention emerge; the measured claims
its captions make; and the check that a typed sentence uses only the words it knows."""
from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import attention_core
from attention_core import InputError
from attention_core.checkpoint import load_checkpoint
from attention_core.grammar import role_of
from attention_core.trained import MEASURED, step_folders
from attention_core.words import every_language

from .kinds import TRAINED_KIND
from .models import DEFAULT_SENTENCE, SharedHeads, masked_entry, model_entry, sentence_set

#: where the committed checkpoints are (`make train` writes them)
TRAINED_DIR = Path(attention_core.__file__).resolve().parent / "data" / "tiny-korean"
#: the sentence the trained model opens with: the book's, as every model's
TRAINED_SENTENCE = DEFAULT_SENTENCE
FAMILY = TRAINED_KIND


def named(name: str, models) -> str:
    """A link's preset= as the entry it names: "trained" is the trained model at its last training
    step (the page's source.js sourceNamed reads it alike); any other name is itself."""
    if name != FAMILY:
        return name
    steps = sorted(entry["name"] for entry in models if entry.get("kind") == FAMILY and not entry.get("typed"))
    return steps[-1] if steps else name
#: a head's caption claims a role only where, on held-out sentences, the predicate gives that
#: role's word at least this share of its weight on average (and more than to the other two)
CLAIM_SHARE = 0.5


@lru_cache(maxsize=1)
def trained_steps() -> tuple:
    """((step, Checkpoint), …) of the committed checkpoints, loaded once per process."""
    return tuple((step, load_checkpoint(folder)) for step, folder in step_folders(TRAINED_DIR))


@lru_cache(maxsize=1)
def metrics() -> dict:
    """What training measured (attention_core.trained.measure_all), as committed."""
    return json.loads((TRAINED_DIR / "metrics.json").read_text(encoding="utf-8"))


def ablation(step: int) -> dict:
    """What removing each head costs the model's task at `step`, as training measured it on the
    held-out sentences (attention_core.trained.head_ablation): {"loss", "without" (layers, heads),
    "rank" (layers, heads): 1 for the head whose removal raises the loss the most}."""
    found = metrics()["by_step"][str(step)]["ablation"]
    without = [value for row in found["without"] for value in row]
    order = sorted(range(len(without)), key=lambda i: -without[i])
    heads = len(found["without"][0])
    rank = [[order.index(layer * heads + head) + 1 for head in range(heads)] for layer in range(len(found["without"]))]
    return {**found, "rank": rank}


def claims(step: int) -> list[dict]:
    """The heads whose caption may say what they look at, at `step`: {layer, head, role, share}."""
    table = metrics()["by_step"][str(step)]["heads"]
    found = []
    for layer, row in enumerate(table[MEASURED[0]]):
        for head in range(len(row)):
            shares = {role: table[role][layer][head] for role in MEASURED}
            role = max(shares, key=shares.get)
            if shares[role] >= CLAIM_SHARE:
                found.append({"layer": layer, "head": head, "role": role, "share": shares[role]})
    return found


def claims_here(step: int, aset) -> list[dict]:
    """claims(step), each with what the sentence on show gives it: `word`, the sentence's word of
    that role, and `here`, the weight its predicate (the query the claim speaks of) gives that word
    in that head, as the model computes it (every token, [CLS] and [SEP] too, as measured); both
    None where the sentence has no such word or no predicate."""
    roles = {role_of(aset.word_texts[word]): index for index, word in enumerate(aset.words) if word >= 0}
    found = []
    for claim in claims(step):
        query, key = roles.get("predicate"), roles.get(claim["role"])
        here = None if query is None or key is None else float(aset.layer_weights(claim["layer"])[claim["head"]][query][key])
        found.append({**claim, "word": None if here is None else aset.pieces[key], "here": here})
    return found


def opening_head(found: list[dict]) -> dict:
    """{layer, head} of the claim the sentence on show bears out best (the largest weight its
    predicate gives the claimed word), or {} when no claim speaks of this sentence: where the
    model opens, so its first screen shows what a head learned (README: 'opens on ...')."""
    here = [claim for claim in found if claim["here"] is not None]
    best = max(here, key=lambda claim: claim["here"], default=None)
    return {"layer": best["layer"], "head": best["head"]} if best else {}


def check_words(text: str, vocabulary, most: int) -> None:
    """InputError('unknown_words') naming each word the model has no token for (its special
    tokens, [CLS] and the like, are not words), or InputError('too_many_words') past `most` words."""
    unknown = [word for word in text.split() if word not in vocabulary or word.startswith("[")]
    if unknown:
        raise InputError("unknown_words", f"unknown words: {' '.join(unknown)}", words=" ".join(dict.fromkeys(unknown)))
    if len(text.split()) > most:
        raise InputError("too_many_words", f"more than {most} words", most=most)


def family_name(step: int, family: str = FAMILY) -> str:
    return f"{family}-{step:04d}"


def training_sets(text: str, family: str = FAMILY) -> list[tuple[str, object, dict, int]]:
    """The sentence through every saved step: (name, AttentionSet, titles, step) each. InputError
    for a word the model does not know."""
    steps = trained_steps()
    final = steps[-1][1]
    check_words(text, final.tokenizer.get_vocab(), final.config.max_positions - 2)  # [CLS] and [SEP] take two
    made = []
    for step, checkpoint in steps:
        name, aset, _ = sentence_set(checkpoint, family_name(step, family), text)
        aset = replace(aset, source=f"tiny-korean, step {step}")
        titles = every_language("trained_model", "titles", sentence=text)
        made.append((name, aset, titles, step))
    # each step compared with the step before it (the first: after it) and with the first, untrained
    # one (A₁ − A₂ per head: attention_core.lenses.difference)
    def compared(index):
        others = dict.fromkeys(i for i in (index - 1 if index else 1, 0) if i != index and i < len(made))
        return tuple(({"name": made[i][0], "step": made[i][3]}, made[i][1]) for i in others)
    return [(name, replace(aset, compared=compared(index)), titles, step) for index, (name, aset, titles, step) in enumerate(made)]


def training_entries(text: str, family: str = FAMILY, bank: bool = False) -> tuple[list[dict], dict]:
    """Model entries of the sentence at every saved step, each with `training` (the family, its
    steps and entry names, this entry's step, the measured claims at that step, the held-out
    count) and the vocabulary; and the sets by name, for the heads Python makes on demand.
    bank=True: every head in every entry (an exported file), with every step at the last training
    step and the weights alone before it (the file's budget, bench/export_size.py)."""
    made = training_sets(text, family)
    names, steps = [name for name, _, _, _ in made], [step for _, _, _, step in made]
    vocabulary = [w for w in trained_steps()[-1][1].tokenizer.get_vocab() if not w.startswith("[")]
    # it opens with its special tokens shown: every step, as the heads were measured (with [CLS], [SEP])
    typed_family = family.removesuffix("-own") + "-own"  # a sentence typed through one of these
    # every step opens on the head the last step's claims show best here: the slider keeps it
    opens = {"merge": True, "special": True, **opening_head(claims_here(steps[-1], made[-1][1]))}
    # an exported file compares its heads at the last step only (its budget, bench/export_size.py)
    if bank:
        made = [(name, aset if step == steps[-1] else replace(aset, compared=()), titles, step) for name, aset, titles, step in made]
    entries = [{**model_entry(aset, name, titles, bank=bank, kind="trained", typable=True,
                              typed_name=family_name(step, typed_family), bank_steps=not bank or step == steps[-1]), "opens": opens,
                "training": {"family": family, "names": names, "steps": steps, "step": step, "claims": claims_here(step, aset),
                             "ablation": ablation(step),
                             "held_out": metrics()["held_out"], "accuracy": metrics()["by_step"][str(step)]["accuracy"]},
                "vocabulary": sorted(vocabulary),
                # what it fills in for the predicate hidden as [MASK] (it predicts no next token)
                "fill": masked_entry(aset)}
               for name, aset, titles, step in made]
    return entries, {name: (aset, titles) for name, aset, titles, _ in made}


@lru_cache(maxsize=1)
def default_training_heads() -> SharedHeads:
    """The trained model's head entries on its opening sentence, shared by every session."""
    _, sets = default_training_entries()
    return SharedHeads([(name, aset, titles) for name, (aset, titles) in sets.items()])


@lru_cache(maxsize=1)
def default_training_entries() -> tuple:
    """The trained model on its opening sentence, computed once per process."""
    entries, sets = training_entries(TRAINED_SENTENCE)
    return tuple(entries), sets
