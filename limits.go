package sitemap

// Protocol limits (S-01..S-03, S-08, L-04, N-10).
const (
	// MaxURLs is the most <url> entries one sitemap may hold (S-01), and the
	// most <sitemap> entries one index may hold (S-03).
	MaxURLs = 50000
	// MaxBytes is the most uncompressed bytes one sitemap or index may have
	// (S-02, S-03): 50 MiB.
	MaxBytes = 52428800
	// MaxLocLength is the length a <loc> must stay under (L-04, L-06): a loc of
	// MaxLocLength characters or more is rejected by the encoder.
	MaxLocLength = 2048
	// MinLocLength is the XSD's minLength for <loc> (L-05).
	MinLocLength = 12
	// MaxImagesPerURL is the most <image:image> one <url> may carry (IM-02).
	MaxImagesPerURL = 1000
	// MaxVideoTags is the most <video:tag> one video may carry (S-08).
	MaxVideoTags = 32
	// MaxNewsPerSitemap is the most <news:news> one sitemap may carry (N-10).
	MaxNewsPerSitemap = 1000
	// MaxVideoDescription is the most characters (runes) a video description
	// may have (V-01).
	MaxVideoDescription = 2048
	// MaxVideoDuration is the longest video duration in seconds (V-01).
	MaxVideoDuration = 28800
)

// Namespace URIs (X-03, EX-04, H-01, LG-01).
const (
	NamespaceSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	NamespaceImage   = "http://www.google.com/schemas/sitemap-image/1.1"
	NamespaceVideo   = "http://www.google.com/schemas/sitemap-video/1.1"
	NamespaceNews    = "http://www.google.com/schemas/sitemap-news/0.9"
	NamespaceXHTML   = "http://www.w3.org/1999/xhtml"
	// NamespaceLegacy is Google's pre-2006 sitemap namespace (LG-01); read as
	// a synonym of NamespaceSitemap with a warning, never written.
	NamespaceLegacy = "http://www.google.com/schemas/sitemap/0.84"
	// NamespaceMobile is the obsolete mobile extension (LG-04); recognised
	// and skipped.
	NamespaceMobile = "http://www.google.com/schemas/sitemap-mobile/1.0"
	// NamespacePageMap is Google's PageMap extension; recognised and skipped.
	NamespacePageMap = "http://www.google.com/schemas/sitemap-pagemap/1.0"
)
