# hexengine regression file: 7x7 positions with one right move.
# Black connects top to bottom (rows 1..7), white left to right (columns a..g).
param_hexengine max_time 1

# black to move wins at once: d4 joins d1-d3 to d5-d7
boardsize 7
play b d1
play b d2
play b d3
play b d5
play b d6
play b d7
play w a1
10 genmove b
#? [d4]

# white to move must block d4 (the same black stones, from block.sgf, a path relative to
# this file's directory)
20 loadsgf block.sgf
30 showboard
#? [.*black X \(top-bottom\): 6 stones, white O \(left-right\): 5 stones, move 11, white to move]
40 genmove w
#? [d4]

# loadsgf FILE N: the position before move N
50 loadsgf block.sgf 5
60 showboard
#? [.*black X \(top-bottom\): 2 stones, white O \(left-right\): 2 stones, move 4, black to move]
