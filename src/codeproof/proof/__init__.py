"""The proof of a module: how strong the evidence that its code is right is.

Language-free logic over what a language provides (:attr:`codeproof.languages.base.
Language.proving`): which code mutants to run (:mod:`.mutation`), which inputs the drafts
disagree on (:mod:`.questions`), which checks to add and how many distinct checks the
tests hold (:mod:`.checks`), and how strong the proof is (:mod:`.strength`). The engine's
step :mod:`codeproof.engine.proving` runs it in the sandbox.
"""
