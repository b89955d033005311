package generate

import "testing"

// ShardOf of fewer than two shards is shard 1 (0 divided by zero).
func TestShardOfOneShard(t *testing.T) {
	for _, n := range []int{-1, 0, 1} {
		if got := ShardOf(base+"a", n); got != 1 {
			t.Errorf("ShardOf(_, %d) = %d", n, got)
		}
	}
}
