# hexengine regression file: board, moves, undo, showboard and errors.
# Run it with: hex-regress --set "hexengine --quiet" regress/basics.tst
# (--set: the all_legal_moves answer below is compared as a set of cells.)

10 name
#? [hexengine]

# boardsize: sizes 1..52, square or W H
20 boardsize 99
#? [?unacceptable size.*]
30 boardsize 3
40 all_legal_moves
#? [c3 b3 a3 c2 b2 a2 c1 b1 a1]

# a stone shows on the board and leaves the legal moves
boardsize 7
50 play b d1
60 showboard
#? [.*^1 \\\. \. \. X \. \. \.\\ 1$.*black X \(top-bottom\): 1 stones, white O \(left-right\): 0 stones, move 1, white to move]
70 all_legal_moves
#? [!.*\bd1\b.*]
80 play w d1
#? [?illegal move.*occupied.*]
90 play b zz
#? [?invalid move.*]

# undo takes the stone back; with nothing to undo it is an error
100 undo
110 showboard
#? [.*black X \(top-bottom\): 0 stones, white O \(left-right\): 0 stones, move 0, black to move]
120 undo
#? [?cannot undo.*]

# the winner of a finished game
boardsize 3
play b a1
play w b1
play b a2
play w b2
play b a3
130 final_score
#? [B\+]
