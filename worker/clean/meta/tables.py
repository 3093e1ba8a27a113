"""Where pages write their metadata: every key, type and class the extractor reads, with its reason.

Keys are matched lower-cased. A date source's *tier* orders the sources when they disagree: tier 1 says
"published" in a vocabulary made for it, tier 2 is a creation or generic date that is usually the
publication date, tier 3 is a date written for readers (visible text). Measurements: the share of
pages of htmldate's evaluation set where a source's day equals the gold day (scripts/eval_dates.py
--sources prints them).
"""

from __future__ import annotations

# --- <meta> keys (name=, property=, itemprop=, http-equiv=) ------------------------------------------

# Publication date, tier 1: vocabularies whose key means "first published" (Open Graph article,
# Parse.ly, Sailthru, Highwire/Google Scholar, Dublin Core "issued", schema.org microdata in <meta>,
# and the names CMS plugins invented for the same thing).
META_PUBLISHED: frozenset[str] = frozenset(
    {
        "article:published_time", "og:article:published_time", "article:published", "og:published_time",
        "article:published_date", "article:publicationdate", "article.published", "article:post_date",
        "published_time", "published_date", "publish_date", "publish-date", "publishdate", "pubdate",
        "publication_date", "published-date", "publisheddate", "datepublished", "date_published",
        "parsely-pub-date", "sailthru.date", "citation_publication_date", "citation_date",
        "citation_online_date", "dc.date.issued", "dcterms.issued", "dc.date.publication",
        "og:pubdate", "og:publish_date", "og:datepublished", "rnews:datepublished", "bt:pubdate",
        "shareaholic:article_published_time", "cxenseparse:recs:publishtime", "vr:published_time",
        "mediator_published_time", "originalpublicationdate", "article_date_original",
        "dcsext.articlefirstpublished", "displaydate", "twt-published-at", "rbpubdate", "pdate",
        "date.published", "analyticsattributes.articledate", "video:release_date",
    }
)  # fmt: skip
# Publication date, tier 2: creation dates and the generic "date" keys, which most sites fill with the
# publication date but some with the page's generation time.
META_CREATED: frozenset[str] = frozenset(
    {
        "datecreated", "date_created", "dc.date", "dc.date.created", "dc.created", "dcterms.created",
        "dcterms.date", "dc:date", "dc:created", "date", "created", "article.created", "doc_date",
        "content_create_date", "timestamp", "ptime",
    }
)  # fmt: skip
# Last modification: reported as `modified`, never taken for the publication date (a page updated
# years later would be dated wrong).
META_MODIFIED: frozenset[str] = frozenset(
    {
        "article:modified_time", "og:article:modified_time", "article:modified", "og:updated_time",
        "og:modified_time", "modified_time", "updated_time", "datemodified", "date_modified",
        "dc.date.modified", "dcterms.modified", "dc.modified", "last-modified", "lastmodified",
        "lastmod", "modified", "utime", "article:modified_date", "revision_date", "bt:moddate",
        "shareaholic:article_modified_time", "parsely-updated", "sailthru.lastmodified",
    }
)  # fmt: skip
# Authors by name (article:author and author are often a profile URL: those are skipped).
META_AUTHOR: frozenset[str] = frozenset(
    {
        "author", "article:author", "og:article:author", "parsely-author", "sailthru.author",
        "citation_author", "dc.creator", "dcterms.creator", "dc:creator", "byl", "twitter:creator",
        "cxenseparse:author", "article.author",
    }
)  # fmt: skip
META_SITE_NAME: tuple[str, ...] = ("og:site_name", "application-name", "twitter:site", "dc.publisher",
                                   "citation_publisher", "publisher")  # fmt: skip
META_DESCRIPTION: tuple[str, ...] = ("og:description", "description", "twitter:description",
                                     "dc.description", "dcterms.description")  # fmt: skip
META_IMAGE: tuple[str, ...] = ("og:image", "og:image:url", "og:image:secure_url", "twitter:image",
                               "twitter:image:src", "thumbnail")  # fmt: skip
# The article's own title, without the site's suffix that <title> carries.
META_TITLE: tuple[str, ...] = ("og:title", "twitter:title", "citation_title", "dc.title", "parsely-title",
                               "sailthru.title", "headline")  # fmt: skip
META_URL: tuple[str, ...] = ("og:url",)
# Free keywords: article:tag is one tag per element, the others a comma-separated list.
META_TAGS: frozenset[str] = frozenset({"article:tag", "og:article:tag", "keywords", "news_keywords",
                                       "parsely-tags", "sailthru.tags", "citation_keywords"})  # fmt: skip
# The section or category of the site the article is filed under.
META_SECTION: frozenset[str] = frozenset({"article:section", "og:article:section", "parsely-section",
                                          "section", "category", "dc.subject"})  # fmt: skip

# --- JSON-LD (schema.org) -----------------------------------------------------------------------

# Types whose dates are the page's own story, best first: a creative work the page is about.
JSONLD_ARTICLE_TYPES: frozenset[str] = frozenset(
    {
        "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
        "opinionnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "askpublicnewsarticle",
        "liveblogposting", "techarticle", "scholarlyarticle", "medicalscholarlyarticle", "report",
        "socialmediaposting", "discussionforumposting", "posting", "review", "recipe", "videoobject",
        "audioobject", "podcastepisode", "creativework", "howto", "qapage", "pressrelease",
        "satiricalarticle", "advertisercontentarticle",
    }
)  # fmt: skip
# Types that describe the page itself: their dates are used when no article type gives one.
JSONLD_PAGE_TYPES: frozenset[str] = frozenset(
    {"webpage", "itempage", "collectionpage", "aboutpage", "profilepage", "faqpage", "medicalwebpage"}
)
# Properties holding further entities of the same document (not authors, publishers or lists of
# other articles, whose dates are not the page's).
JSONLD_NESTED: tuple[str, ...] = ("@graph", "mainEntity", "mainEntityOfPage")

# --- visible markup -----------------------------------------------------------------------------

# Classes of <time> (and of any element with a date) that mark the publication date: WordPress
# themes ("entry-date published"), hAtom ("published"), microformats2 ("dt-published").
PUBLISHED_CLASSES: frozenset[str] = frozenset(
    {"published", "dt-published", "entry-date", "post-date", "date-published", "publish-date",
     "article-date", "pubdate", "publication-date", "published-date", "article__date"}
)  # fmt: skip
# ... and the modification date ("updated" is hAtom's, "dt-updated" microformats2's).
MODIFIED_CLASSES: frozenset[str] = frozenset({"updated", "dt-updated", "modified", "date-modified",
                                              "last-modified"})  # fmt: skip

# Every <meta> key the extractor reads, to its role: one dict lookup per <meta>.
META_ROLE: dict[str, str] = {
    **dict.fromkeys(META_PUBLISHED, "published"),
    **dict.fromkeys(META_CREATED, "created"),
    **dict.fromkeys(META_MODIFIED, "modified"),
    **dict.fromkeys(META_TAGS, "tag"),
    **dict.fromkeys(META_SECTION, "section"),
    **dict.fromkeys(META_AUTHOR, "author"),
}
assert len(META_ROLE) == sum(
    map(len, (META_PUBLISHED, META_CREATED, META_MODIFIED, META_TAGS, META_SECTION, META_AUTHOR))
), "a <meta> key has two roles"
# Every <meta> key the extractor reads: a role's, or one whose first value the fields take. The scans hand
# Python no other <meta> (on the shared pages most are viewport, theme-color, og:type, fb:app_id...).
META_READ: frozenset[str] = frozenset(
    (*META_ROLE, *META_SITE_NAME, *META_DESCRIPTION, *META_IMAGE, *META_TITLE, *META_URL)
)
