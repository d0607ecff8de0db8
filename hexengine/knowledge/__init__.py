"""What a Hex player sees in a position, beyond a static score.

Each module holds one concern and works on raw bitboards (``geo`` from
``hexengine.geometry``, ``stones = [black_bits, white_bits]``), never on Board objects, and
never does I/O.  The search, the solver and the protocol ask these modules; they do not grow
the knowledge inside themselves.

``inferior``  dead cells, captured cells and fill-in (Hayward, Henderson, Björnsson; Benzene's
              ICE), and the moves that can be pruned soundly:
              ``fill_in(geo, stones) -> (filled_stones, Inferior)`` and
              ``prunable(geo, stones, colour) -> int``.
``vc``        virtual connections (Anshelevich's H-search with carriers as bitboards, edge
              templates) and mustplay, the front callers use:
              ``build(geo, stones, colour) -> Connections`` and
              ``mustplay(geo, stones, colour) -> int``.  Behind it, importing only downward:
              ``hsearch`` (the compiled H-search) and ``hsearch_python`` (the reference
              closure), which both build on ``connections`` (node ids, ``Limits``,
              ``Connections``) and ``templates`` (bridges and edge templates).
"""
