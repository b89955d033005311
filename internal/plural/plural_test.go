package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 URLs"}, {1, "1 URL"}, {2, "2 URLs"}, {999, "999 URLs"},
		{1000, "1,000 URLs"}, {1234567, "1,234,567 URLs"}, {-1, "-1 URLs"},
	} {
		if got := Of(c.n, "URL", "URLs"); got != c.want {
			t.Errorf("Of(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Of(1, "batch", "batches"); got != "1 batch" {
		t.Errorf("Of(int 1) = %q", got)
	}
}
