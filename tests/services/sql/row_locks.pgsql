# SELECT ... FOR UPDATE: blocking, NOWAIT, 25P02, release by COMMIT and by disconnect, a missing
# row locks nothing, an open transaction's insert makes a duplicate insert wait.
Z INSERT lock -
A BEGIN
A FORUPDATE lock
B BEGIN
B FORUPDATE lock
C BEGIN
C FORUPDATE lock nowait
C SELECT lock
C COMMIT
A FORUPDATE lock
A COMMIT
B result
D INSERT lock d
!close B
D BEGIN
D FORUPDATE none
E BEGIN
E FORUPDATE none
D COMMIT
E COMMIT
F BEGIN
F INSERT job f
G INSERT job g
H SELECT job
F ROLLBACK
G result
A BEGIN
A INSERT job a2
A SELECT job
A ROLLBACK
