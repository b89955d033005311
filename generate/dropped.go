package generate

import (
	"slices"
	"strconv"
	"strings"
)

// droppedItems are the items of an entry's lists (alternates, images,
// videos) dropped so far, by list, at their indices as read: after
// alternates[1] is dropped, the entry's alternates[1] is the one read as
// alternates[2].
type droppedItems map[string][]int

// asRead renames the item dropped (such as "alternates[1]", as the
// entry stands after the earlier drops) and its message to the item's
// index as read, and records it as dropped. A field that is no list item
// (lastmod, images[0].caption) is returned as it is.
func (g *droppedItems) asRead(msg, dropped string) (string, string) {
	i := strings.IndexByte(dropped, '[')
	if i <= 0 || !strings.HasSuffix(dropped, "]") {
		return msg, dropped
	}
	list := dropped[:i]
	k, err := strconv.Atoi(dropped[i+1 : len(dropped)-1])
	if err != nil || k < 0 {
		return msg, dropped
	}
	if *g == nil {
		*g = droppedItems{}
	}
	orig := k
	for _, d := range (*g)[list] { // ascending
		if d <= orig {
			orig++
		}
	}
	(*g)[list] = append((*g)[list], orig)
	slices.Sort((*g)[list])
	if orig == k {
		return msg, dropped
	}
	now, read := list+"["+strconv.Itoa(k)+"]", list+"["+strconv.Itoa(orig)+"]"
	return strings.ReplaceAll(msg, now, read), read
}
