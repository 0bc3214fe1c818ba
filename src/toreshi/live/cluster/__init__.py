"""Several instances on one database: leases, forwarding, replicas, the Redis bus (:mod:`.rooms` ties them)."""
