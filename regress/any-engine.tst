# Any engine: standard commands only (boardsize, clear_board, play, genmove, undo).
# 6x6 positions where the side to move has exactly one winning move (found and
# checked by the project's DFPN solver: dfpn-solver-find-winning lists only it),
# then errors that must leave the position as it was.  Give the engine its time
# limit with --init, e.g.:
#   hex-regress --init "param_hexengine max_time 2" "hexengine --quiet" regress/any-engine.tst
#   hex-regress --init "param_wolve max_time 2" "wolve --use-logfile=0 --quiet" regress/any-engine.tst

boardsize 6
clear_board
play b a1
play w f3
play b b4
play w b1
play b b3
play w f1
play b a3
play w d5
play b d6
10 genmove w
#? [b5]

boardsize 6
clear_board
play b c1
play w c6
play b e3
play w d3
play b b5
play w c2
play b b3
play w c5
20 genmove b
#? [c3]

boardsize 6
clear_board
play b f3
play w d3
play b a6
play w b6
play b c2
play w e2
play b b3
play w e5
play b c5
play w e6
play b e3
30 genmove w
#? [b4]

boardsize 6
clear_board
play b c2
play w c3
play b e4
play w f2
play b c4
play w b4
play b e2
play w e5
play b a2
play w d5
play b a5
play w c5
play b d1
play w e1
40 genmove b
#? [b5]

boardsize 6
clear_board
play b d1
play w a1
play b f3
play w e3
play b d5
play w e6
play b b4
play w b1
play b f6
play w b2
play b d6
play w c2
play b c1
50 genmove w
#? [e2]

boardsize 6
clear_board
play b e3
play w b6
play b b5
play w d4
play b f1
play w d3
play b d5
play w b2
play b a3
play w b1
play b a2
60 genmove w
#? [e2]

# errors leave the position as it was: an occupied cell, a cell off the board
boardsize 6
clear_board
play b c3
70 play w c3
#? [?.*]
80 play w g7
#? [?.*]
90 play w c4
#? [.*]
# undo takes the last stone back: c4 can be played again
100 undo
110 play w c4
#? [.*]
