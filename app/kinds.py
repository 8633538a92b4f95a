"""The kinds of entry the page can show: the typed source of what is on show is (kind, name)."""

#: The kinds of sentence entry (the `sentences` catalog): a preset, a sentence typed in the page or
#: given to the exporter, typed numbers (or typed W), a practice problem.
SENTENCE_KINDS = ("preset", "sentence", "numbers", "practice")
#: The kinds of model entry (the `models` catalog): a checkpoint's sentences, imported weights, the
#: model trained here at one of its saved steps. One head of one of them is an entry of kind "head".
MODEL_KINDS = ("model", "imported", "trained")
