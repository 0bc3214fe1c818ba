"""«Своя игра»: question packs (:mod:`toreshi.quiz.pack`), their file formats, and the game by the regulation.

The pack model is pure and immutable; :mod:`toreshi.quiz.siq` reads and writes SIGame ``.siq`` files and
:mod:`toreshi.quiz.chgk` imports db.chgk.info «Своя игра» text.
"""
