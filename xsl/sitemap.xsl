<?xml version="1.0" encoding="UTF-8"?>
<!--
  Default stylesheet that "sitemap generate" writes with its xsl option: shows a sitemap (urlset) or
  a sitemap index to people who open it in a browser, as a table. Search
  engines ignore it. XSLT 1.0, so that browsers can apply it; it must be
  served from the same origin as the sitemaps that reference it.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
    xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
    xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
    xmlns:xhtml="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="s image video news xhtml">

  <xsl:output method="html" encoding="UTF-8" indent="yes" doctype-system="about:legacy-compat"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex"/>
        <title>
          <xsl:choose>
            <xsl:when test="s:sitemapindex">Sitemap index</xsl:when>
            <xsl:otherwise>Sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
        <style>
          :root { color-scheme: light dark; }
          body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 24px 32px; color: #1f2328; background: #fff; }
          h1 { font-size: 22px; margin: 0 0 4px; }
          p.lead { margin: 0 0 18px; color: #59636e; }
          p.lead a { color: inherit; }
          table { border-collapse: collapse; width: 100%; }
          th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #d1d9e0; vertical-align: top; }
          th { background: #f6f8fa; font-weight: 600; position: sticky; top: 0; white-space: nowrap; }
          td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
          td.loc { word-break: break-all; }
          td.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
          td.muted { color: #818b98; }
          tr:hover td { background: #f6f8fa; }
          a { color: #0969da; text-decoration: none; }
          a:hover { text-decoration: underline; }
          @media (prefers-color-scheme: dark) {
            body { color: #e6edf3; background: #0d1117; }
            p.lead { color: #9198a1; }
            th { background: #151b23; }
            th, td { border-color: #3d444d; }
            tr:hover td { background: #151b23; }
            a { color: #4493f8; }
          }
        </style>
      </head>
      <body>
        <xsl:apply-templates select="s:sitemapindex | s:urlset"/>
      </body>
    </html>
  </xsl:template>

  <!-- A sitemap index: its child sitemaps, as links. -->
  <xsl:template match="s:sitemapindex">
    <h1>Sitemap index</h1>
    <p class="lead">
      This index lists <strong><xsl:value-of select="count(s:sitemap)"/></strong> sitemap<xsl:if test="count(s:sitemap) != 1">s</xsl:if>.
      It is meant for search engines; see <a href="https://www.sitemaps.org/">sitemaps.org</a>.
    </p>
    <table>
      <thead>
        <tr><th class="n">#</th><th>Sitemap</th><th>Last modified</th></tr>
      </thead>
      <tbody>
        <xsl:for-each select="s:sitemap">
          <tr>
            <td class="n"><xsl:value-of select="position()"/></td>
            <td class="loc"><a href="{normalize-space(s:loc)}"><xsl:value-of select="normalize-space(s:loc)"/></a></td>
            <xsl:call-template name="date"><xsl:with-param name="d" select="s:lastmod"/></xsl:call-template>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- A sitemap: one row per URL with its dates, hints and extension counts. -->
  <xsl:template match="s:urlset">
    <h1>Sitemap</h1>
    <p class="lead">
      This sitemap lists <strong><xsl:value-of select="count(s:url)"/></strong> URL<xsl:if test="count(s:url) != 1">s</xsl:if>.
      It is meant for search engines; see <a href="https://www.sitemaps.org/">sitemaps.org</a>.
    </p>
    <table>
      <thead>
        <tr>
          <th class="n">#</th><th>URL</th><th>Last modified</th><th>Change freq.</th><th class="n">Priority</th>
          <th class="n">Images</th><th class="n">Videos</th><th class="n">Alternates</th><th>News</th>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="s:url">
          <tr>
            <td class="n"><xsl:value-of select="position()"/></td>
            <td class="loc"><a href="{normalize-space(s:loc)}"><xsl:value-of select="normalize-space(s:loc)"/></a></td>
            <xsl:call-template name="date"><xsl:with-param name="d" select="s:lastmod"/></xsl:call-template>
            <xsl:call-template name="text"><xsl:with-param name="v" select="s:changefreq"/></xsl:call-template>
            <td class="n"><xsl:value-of select="s:priority"/></td>
            <xsl:call-template name="count"><xsl:with-param name="n" select="count(image:image)"/></xsl:call-template>
            <xsl:call-template name="count"><xsl:with-param name="n" select="count(video:video)"/></xsl:call-template>
            <xsl:call-template name="count"><xsl:with-param name="n" select="count(xhtml:link[@rel='alternate'])"/></xsl:call-template>
            <xsl:call-template name="text"><xsl:with-param name="v" select="news:news/news:title"/></xsl:call-template>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- A W3C Datetime, with a space for the T; a dash when absent. -->
  <xsl:template name="date">
    <xsl:param name="d"/>
    <xsl:choose>
      <xsl:when test="normalize-space($d) != ''">
        <td class="date"><xsl:value-of select="translate(normalize-space($d), 'T', ' ')"/></td>
      </xsl:when>
      <xsl:otherwise><td class="date muted">–</td></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="text">
    <xsl:param name="v"/>
    <xsl:choose>
      <xsl:when test="normalize-space($v) != ''"><td><xsl:value-of select="normalize-space($v)"/></td></xsl:when>
      <xsl:otherwise><td class="muted">–</td></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="count">
    <xsl:param name="n"/>
    <xsl:choose>
      <xsl:when test="$n &gt; 0"><td class="n"><xsl:value-of select="$n"/></td></xsl:when>
      <xsl:otherwise><td class="n muted">0</td></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
