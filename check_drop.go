package sitemap

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/rules"
)

// Drop removes from u the field or extension block the encoder's refusal
// e is about, so that
// the rest of the entry can be written: the lastmod, changefreq or
// priority; the image, video or alternate at the index Field names
// ("videos[1].thumbnail_loc" drops videos[1]); the news block; the images
// past the 1,000th (IM-02). An optional field that is only written under
// EncoderOptions.Legacy (an image's caption, geo_location, title or
// license; news access, genres, keywords or stock_tickers) goes alone,
// keeping its image or news block. It returns what it dropped, in the entry
// record's terms ("priority", "videos[1]", "news", "images[1000:]"), and
// true; or "" and false when e is about the entry as a whole (its loc, its
// scope, a namespace the document lacks) and there is nothing to drop but
// the entry.
//
// Slices of u are copied before an element is removed, so a caller's
// backing arrays are never changed. Check u again after Drop: another
// field may have a problem too (Check reports the first).
func (u *URL) Drop(e *EntryError) (string, bool) {
	if e == nil || u == nil || e.Rule == rules.EX05 {
		return "", false
	}
	name, sub, _ := strings.Cut(e.Field, ".")
	list, idx := name, -1
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		n, err := strconv.Atoi(name[i+1 : len(name)-1])
		if err != nil || n < 0 {
			return "", false
		}
		list, idx = name[:i], n
	}
	switch list {
	case "lastmod":
		if u.LastMod.IsZero() {
			return "", false
		}
		u.LastMod = Date{}
		return list, true
	case "changefreq":
		if u.ChangeFreq == "" {
			return "", false
		}
		u.ChangeFreq = ""
		return list, true
	case "priority":
		if u.Priority == nil {
			return "", false
		}
		u.Priority = nil
		return list, true
	case "news":
		if u.News == nil {
			return "", false
		}
		// The 2010 XSD's optional tags (N-08) go alone; anything else
		// takes the block with it.
		n := *u.News
		switch sub {
		case "access":
			n.Access = ""
		case "genres":
			n.Genres = ""
		case "keywords":
			n.Keywords = ""
		case "stock_tickers":
			n.StockTickers = ""
		default:
			u.News = nil
			return list, true
		}
		u.News = &n
		return e.Field, true
	case "images":
		if idx < 0 {
			if e.Rule == rules.IM02 && len(u.Images) > MaxImagesPerURL {
				u.Images = u.Images[:MaxImagesPerURL:MaxImagesPerURL]
				return "images[" + strconv.Itoa(MaxImagesPerURL) + ":]", true
			}
			return "", false
		}
		if idx < len(u.Images) {
			// The deprecated optional fields (IM-03) go alone.
			im := u.Images[idx]
			switch sub {
			case "caption":
				im.Caption = ""
			case "geo_location":
				im.GeoLocation = ""
			case "title":
				im.Title = ""
			case "license":
				im.License = ""
			default:
				return dropAt(&u.Images, list, idx)
			}
			u.Images = slices.Clone(u.Images)
			u.Images[idx] = im
			return e.Field, true
		}
		return "", false
	case "videos":
		return dropAt(&u.Videos, list, idx)
	case "alternates":
		return dropAt(&u.Alternates, list, idx)
	}
	return "", false
}

// dropAt removes element i of *s (a copy of it: the caller's array is
// left alone) and names it.
func dropAt[T any](s *[]T, name string, i int) (string, bool) {
	if i < 0 || i >= len(*s) {
		return "", false
	}
	c := slices.Clone(*s)
	*s = slices.Delete(c, i, i+1)
	if len(*s) == 0 {
		*s = nil
	}
	return name + "[" + strconv.Itoa(i) + "]", true
}
