# The plain lock table and the lease row: unique key, owner-checked delete, takeover after
# expiry with a new fence, sequence values consumed by failed inserts.
A INSERT lock a
B INSERT lock b
A SELECT lock
B DELETE lock owner=b
A DELETE lock owner=a
B INSERT lock b ttl=100
A INSERT lock a ttl=100
A TAKEOVER lock a ttl=100
sleep 150
A TAKEOVER lock a ttl=100
B TAKEOVER lock b ttl=100
B DELETE lock owner=b fence=4
A DELETE lock owner=a fence=4
A SELECT lock
!close A
B INSERT lock b
B DELETE lock
