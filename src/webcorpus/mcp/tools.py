"""The MCP tools: each one parses its arguments, calls the same service as its HTTP twin, and
shapes the answer (structured content = the HTTP API's JSON; text content = that JSON, or the
markdown itself for the markdown tools).

Failures a caller can fix (unknown page, bad filter, missing key) come back as tool results with
``isError`` and a message saying what to change; the structured content of such a result is the
RFC 9457 problem document the HTTP API would send.

Arguments mirror the HTTP parameters: a filter the HTTP API takes as a comma list accepts a
string (``"docs,blog"``) or a list of strings, and vocabularies, bounds and limits are checked by
the services (``webcorpus.services.params``), not by the SDK's argument model, so that a bad
value gets the same problem document as over HTTP. The JSON Schema of each tool still states the
vocabularies (``enum``) and bounds (``minimum``/``maximum``/``maxLength``). What the argument model
itself still rejects (a wrong JSON type, a missing required argument) is turned into a problem
document as well, by ``WebcorpusServer.call_tool``.
"""

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema

from webcorpus import __version__
from webcorpus.api.envelope import envelope
from webcorpus.config import Settings
from webcorpus.facets.vocabulary import AUDIENCES, FORMATS, TOPICS, TYPES
from webcorpus.services import (
    bundle,
    collections,
    content,
    crawls,
    domains,
    facets,
    jobs,
    keys,
    params,
)
from webcorpus.services.errors import TITLES, ServiceError, invalid_param
from webcorpus.services.search import SearchEngine
from webcorpus.store import Store

DEFAULT_MAX_CHARS = 20_000
MAX_MAX_CHARS = 1_000_000

INSTRUCTIONS = """\
webcorpus serves an indexed corpus of company websites: pages as clean markdown with facets
(type, format, audience, locale, topics, technicality, depth, originality, promotional, has_code,
words, published) and per-domain records.
Typical flow: `search` (passages answering a question) or `list_content` (pages by facet filters)
-> `get_page_markdown` for the text of a page you picked. `list_facets` gives the valid filter
values. `get_domain` describes a crawled site; `get_domain_markdown` bundles its pages into one
document. Shelves group companies: `list_collections`, `get_collection`.
With an API key (HTTP header `Authorization: Bearer <key>`): `start_crawl` indexes a new root
domain (follow it with `get_job`), `place_on_shelf` files a company on a shelf.
"""

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=True)

HINTS = {
    "not_found": "Check the id or name; search, list_content, list_collections return valid ones.",
    "invalid_parameter": "Fix the argument named above and call again; list_facets lists the "
    "valid facet values.",
    "invalid_body": "Fix the argument named above and call again.",
    "unauthorized": "This tool needs an API key: configure the MCP client to send the HTTP "
    "header 'Authorization: Bearer <key>' (an operator creates one with "
    "'webcorpus keys create NAME').",
    "forbidden": "The key in use lacks this right; ask the operator for a key with write access.",
    "conflict": "Follow the existing job with get_job instead of starting another.",
    "rate_limited": "Too many crawl starts; wait and call again.",
}


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Filters(_Open):
    applied: dict[str, Any] = Field(description="every filter used, with its normalized value")
    unrecognized: list[str] = Field(description="argument names this tool does not know")


class ContentList(_Open):
    data: list[dict[str, Any]] = Field(
        description="pages: id, url, title, domain, description, facets, metrics, indexed_at"
    )
    total: int = Field(description="pages matching the filters, across all pages of results")
    limit: int
    offset: int
    sort: str
    filters: Filters


class SearchResults(_Open):
    data: list[dict[str, Any]] = Field(
        description="passages: chunk_id, page_id, url, title, domain, heading, text, score, ranks"
    )
    query: str
    mode: str
    limit: int
    filters: Filters


class Page(_Open):
    id: str
    url: str
    title: str | None
    domain: str
    facets: dict[str, Any]


class MarkdownPart(_Open):
    markdown: str = Field(description="the markdown text from offset, at most max_chars long")
    offset: int = Field(description="character offset of this part in the whole document")
    returned_chars: int
    total_chars: int = Field(description="length of the whole document in characters")
    truncated: bool = Field(description="true when the document goes on past this part")
    next_offset: int | None = Field(description="offset for the next part, null when complete")


class Job(_Open):
    id: str
    domain: str
    state: str
    progress: dict[str, Any]


class CrawlAccepted(_Open):
    job_id: str
    state: str
    domain: str


JSON = Annotated[CallToolResult, dict[str, Any]]


# Argument types. The Python type is what the SDK's argument model accepts (JSON types only);
# the JSON Schema published for it (WithJsonSchema) states the vocabulary or the bounds, which
# the services check so that a bad value is answered with a problem document.
def _list_schema(vocabulary: Mapping[str, str] | None = None, example: str = "") -> WithJsonSchema:
    """A comma-list HTTP parameter: a list of strings or one string with commas, or null."""
    items: dict[str, Any] = {"type": "string"}
    if vocabulary is not None:
        items["enum"] = list(vocabulary)
    return WithJsonSchema(
        {
            "anyOf": [
                {"type": "array", "items": items},
                {
                    "type": "string",
                    "description": f"comma list of the same values, as over HTTP: '{example}'",
                },
                {"type": "null"},
            ]
        }
    )


def _number_schema(
    kind: str,
    low: float | None = None,
    high: float | None = None,
    *,
    nullable: bool = False,
) -> WithJsonSchema:
    schema: dict[str, Any] = {"type": kind}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    return WithJsonSchema({"anyOf": [schema, {"type": "null"}]} if nullable else schema)


def _choice_schema(values: tuple[str, ...], *, nullable: bool = False) -> WithJsonSchema:
    schema: dict[str, Any] = {"type": "string", "enum": list(values)}
    return WithJsonSchema({"anyOf": [schema, {"type": "null"}]} if nullable else schema)


def _text_schema(max_length: int, *, nullable: bool = False) -> WithJsonSchema:
    schema: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": max_length}
    return WithJsonSchema({"anyOf": [schema, {"type": "null"}]} if nullable else schema)


ListArg = str | list[str] | None

Domains = Annotated[
    ListArg,
    _list_schema(example="python.org,djangoproject.com"),
    Field(description="root domains, any of (e.g. ['python.org']); subdomains are included"),
]
Collection = Annotated[str | None, Field(description="a shelf slug: only companies on that shelf")]
Locales = Annotated[
    ListArg,
    _list_schema(example="de,en-US"),
    Field(description="BCP 47 tags, any of; 'de' matches de, de-DE, de-AT"),
]
Types = Annotated[
    ListArg,
    _list_schema(TYPES, "docs,blog"),
    Field(description="page types, any of: a list (['docs', 'blog']) or a comma list"),
]
Formats = Annotated[
    ListArg,
    _list_schema(FORMATS, "article,tutorial"),
    Field(description="formats, any of: a list or a comma list"),
]
Audiences = Annotated[
    ListArg,
    _list_schema(AUDIENCES, "developers,technical"),
    Field(description="audiences, any of: a list or a comma list"),
]
Topics = Annotated[
    ListArg,
    _list_schema(TOPICS, "databases,security"),
    Field(description="topics, any of: a list or a comma list"),
]
Score = float | None
TechnicalityMin = Annotated[
    Score,
    _number_schema("number", 0, 1, nullable=True),
    Field(description="technicality at least (0 lay .. 1 specialist)"),
]
DepthMin = Annotated[
    Score,
    _number_schema("number", 0, 1, nullable=True),
    Field(description="depth at least (0 thin .. 1 substantive)"),
]
OriginalityMin = Annotated[
    Score,
    _number_schema("number", 0, 1, nullable=True),
    Field(description="originality at least (0 boilerplate .. 1 unique)"),
]
PromotionalMax = Annotated[
    Score,
    _number_schema("number", 0, 1, nullable=True),
    Field(description="promotional at most (0 neutral .. 1 sales copy)"),
]
MaxChars = Annotated[
    int,
    _number_schema("integer", 1, MAX_MAX_CHARS),
    Field(description="most characters returned; the result says when it truncated"),
]
Offset = Annotated[
    int,
    _number_schema("integer", 0),
    Field(description="start at this character (next_offset of a previous call)"),
]
ListOffset = Annotated[
    int, _number_schema("integer", 0, params.MAX_OFFSET), Field(description="skip")
]
PageId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="page id as returned by search / list_content (pg_ + 16 hex)",
    ),
]
Domain = Annotated[
    str, Field(min_length=1, max_length=253, description="root domain, e.g. python.org")
]
Slug = Annotated[
    str, Field(min_length=1, max_length=100, description="shelf slug, e.g. 'databases'")
]


def _ok(data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        structured_content=data,
    )


def _error(exc: ServiceError) -> CallToolResult:
    title, status = TITLES[exc.code]
    problem: dict[str, Any] = {
        "type": f"urn:webcorpus:error:{exc.code}",
        "title": title,
        "status": status,
        "detail": exc.detail,
        "code": exc.code,
    }
    if exc.errors:
        problem["errors"] = exc.errors
    problem.update(exc.extra)
    hint = HINTS.get(exc.code, "")
    if exc.code == "rate_limited" and "Retry-After" in exc.headers:
        hint = f"Too many crawl starts; call again in {exc.headers['Retry-After']} s."
    text = f"{exc.code}: {exc.detail}." + (f" {hint}" if hint else "")
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=problem, is_error=True
    )


def _run(fn: Callable[[], CallToolResult]) -> CallToolResult:
    try:
        return fn()
    except ServiceError as exc:
        return _error(exc)


# Tools whose arguments are the JSON body of their HTTP twin (POST): their errors name fields.
BODY_TOOLS = frozenset({"start_crawl", "place_on_shelf"})


def argument_error(tool: str, exc: ValidationError) -> ServiceError:
    """The SDK's argument-model rejection (wrong JSON type, missing argument) as the problem the
    HTTP API sends for a query parameter (or body field) it cannot parse: one entry per argument."""
    messages: dict[str, list[str]] = {}
    for err in exc.errors():
        loc = [str(part) for part in err.get("loc", ())]
        name = loc[0] if loc else "arguments"
        message = "is required" if err.get("type") == "missing" else str(err.get("msg", "invalid"))
        # a list item's position (loc ends in an index) says which item is wrong
        index = next((part for part in reversed(loc[1:]) if part.isdigit()), None)
        if index is not None:
            message = f"item {index}: {message}"
        if message not in messages.setdefault(name, []):
            messages[name].append(message)
    key, code = ("field", "invalid_body") if tool in BODY_TOOLS else ("param", "invalid_parameter")
    errors = [{key: name, "message": " or ".join(msgs)} for name, msgs in messages.items()]
    detail = "; ".join(f"{e[key]}: {e['message']}" for e in errors)
    return ServiceError(code, detail, errors)


class WebcorpusServer(MCPServer[Any]):
    """The SDK's server, with one change: arguments its argument model rejects (before the tool
    runs) come back as a problem document, like every other argument error, instead of the
    SDK's plain "Error executing tool ..." text with no structured content."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            # Tool.run raises a ToolError caused by a ValidationError only for argument
            # validation; a ValidationError inside a tool body is an UnexpectedToolError.
            if isinstance(exc, UnexpectedToolError) or not isinstance(
                exc.__cause__, ValidationError
            ):
                raise
            return _error(argument_error(name, exc.__cause__))


def clip(text: str, offset: int, max_chars: int) -> dict[str, Any]:
    """Part of a long markdown document: cut at a line break near max_chars when there is one."""
    total = len(text)
    if offset > total:
        raise invalid_param("offset", f"is past the end of the document ({total} characters)")
    end = min(total, offset + max_chars)
    if end < total:
        newline = text.rfind("\n", offset + max_chars // 2, end)
        if newline >= 0:
            end = newline + 1
    part = text[offset:end]
    truncated = end < total
    return {
        "markdown": part,
        "offset": offset,
        "returned_chars": len(part),
        "total_chars": total,
        "truncated": truncated,
        "next_offset": end if truncated else None,
    }


def _markdown_result(
    extra: dict[str, Any], text: str, offset: int, max_chars: int
) -> CallToolResult:
    part = {**extra, **clip(text, offset, max_chars)}
    body = part["markdown"]
    if part["truncated"]:
        body += (
            f"\n\n[truncated: characters {offset}..{part['next_offset']} of "
            f"{part['total_chars']} shown; call again with offset={part['next_offset']} "
            "or a larger max_chars for more]"
        )
    return CallToolResult(content=[TextContent(type="text", text=body)], structured_content=part)


def _unrecognized(ctx: Context, known: set[str]) -> list[str]:
    raw = ctx.request_context.params or {}
    arguments = raw.get("arguments") or {}
    return sorted(k for k in arguments if k not in known)


def _headers(ctx: Context) -> dict[str, str]:
    return {k.lower(): v for k, v in (ctx.headers or {}).items()}


class Tools:
    """Binds the tools to one server's store, settings and app state."""

    def __init__(self, settings: Settings, store: Store, state: Any) -> None:
        self.settings = settings
        self.store = store
        self.state = state

    # ------------------------------------------------------------------ auth
    def key(self, ctx: Context) -> dict[str, Any] | None:
        return keys.authenticate(self.store, _headers(ctx).get("authorization"))

    def require_read(self, ctx: Context) -> None:
        key = self.key(ctx)
        if not self.settings.public_reads:
            keys.require_scope(key, "read")

    def require_write(self, ctx: Context) -> dict[str, Any]:
        return keys.require_scope(self.key(ctx), "write")


def build_server(settings: Settings, store: Store, state: Any) -> MCPServer:
    """The MCP server with every tool registered; ``state`` is the FastAPI app's state."""
    t = Tools(settings, store, state)
    server = WebcorpusServer(
        "webcorpus",
        title="webcorpus",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    s = settings

    Query = Annotated[
        str | None,
        _text_schema(s.max_q_chars, nullable=True),
        Field(description="full-text query over title and body; enables sort=relevance"),
    ]

    # ---------------------------------------------------------------- search
    @server.tool(
        annotations=READ,
        description=(
            "Search the corpus for passages that answer a question or mention a subject "
            "(hybrid full-text + semantic ranking). Use it first when you have a question; use "
            "list_content instead to browse pages by facets. Returns up to `limit` passages "
            "(each ~1-2k characters: text, heading path, page_id, url, title, score), so a "
            "result of 10 is roughly 10-20k characters. Read a whole page with "
            "get_page_markdown(page_id)."
        ),
    )
    def search(
        ctx: Context,
        q: Annotated[str, _text_schema(s.max_q_chars), Field(description="the question or words")],
        mode: Annotated[
            str,
            _choice_schema(params.SEARCH_MODES),
            Field(description="hybrid (default) fuses text and vector ranks; text or vector alone"),
        ] = "hybrid",
        domain: Domains = None,
        collection: Collection = None,
        locale: Locales = None,
        type: Types = None,
        topics: Topics = None,
        technicality_min: TechnicalityMin = None,
        limit: Annotated[
            int, _number_schema("integer", 1, s.search_limit), Field(description="passages")
        ] = 10,
    ) -> JSON:
        def run() -> CallToolResult:
            t.require_read(ctx)
            req = params.search_filters(
                t.settings,
                domain=params.join_list(domain),
                collection=collection,
                locale=params.join_list(locale),
                type=params.join_list(type),
                topics=params.join_list(topics),
                technicality_min=technicality_min,
            )
            engine = getattr(t.state, "search_engine", None)
            if engine is None:
                engine = SearchEngine(t.store, t.settings)
                t.state.search_engine = engine
            result: dict[str, Any] = engine.search(q, mode, req.filters, limit)
            result["filters"] = {
                "applied": req.applied,
                "unrecognized": _unrecognized(ctx, set(params.SEARCH_PARAMS)),
            }
            return _ok(result)

        return _run(run)

    # ---------------------------------------------------------- list_content
    @server.tool(
        annotations=READ,
        description=(
            "List pages filtered by facets (domain, shelf, type, format, audience, locale, "
            "topics, score thresholds, has_code, words, published date) and optionally a "
            "full-text query, sorted (cited, published, words, technicality, depth, originality, "
            "promotional, indexed; relevance with q). Use it to find pages of a kind, e.g. the "
            "most cited docs pages of a domain; use search for passages answering a question. "
            "Returns page metadata and facets without the text (~600 characters per page), "
            "`total` matches and paging by limit/offset. Valid facet values: list_facets."
        ),
    )
    def list_content(
        ctx: Context,
        q: Query = None,
        domain: Domains = None,
        collection: Collection = None,
        type: Types = None,
        format: Formats = None,
        audience: Audiences = None,
        locale: Locales = None,
        topics: Topics = None,
        technicality_min: TechnicalityMin = None,
        depth_min: DepthMin = None,
        originality_min: OriginalityMin = None,
        promotional_max: PromotionalMax = None,
        has_code: Annotated[bool | None, Field(description="pages with / without code")] = None,
        words_min: Annotated[
            int | None,
            _number_schema("integer", 0, nullable=True),
            Field(description="word count at least"),
        ] = None,
        published_after: Annotated[
            str | None,
            Field(
                description="published strictly after this date (YYYY-MM-DD); or after an RFC "
                "3339 time, which keeps pages dated its day (UTC) too, as pages carry only a date"
            ),
        ] = None,
        sort: Annotated[
            str | None,
            _choice_schema(params.CONTENT_SORTS, nullable=True),
            Field(description="default relevance with q, else cited (most cited first)"),
        ] = None,
        limit: Annotated[
            int, _number_schema("integer", 1, s.content_limit), Field(description="pages")
        ] = 20,
        offset: ListOffset = 0,
    ) -> Annotated[CallToolResult, ContentList]:
        def run() -> CallToolResult:
            t.require_read(ctx)
            req = params.content_query(
                t.settings,
                q=q,
                domain=params.join_list(domain),
                collection=collection,
                type=params.join_list(type),
                format=params.join_list(format),
                audience=params.join_list(audience),
                locale=params.join_list(locale),
                topics=params.join_list(topics),
                technicality_min=technicality_min,
                depth_min=depth_min,
                originality_min=originality_min,
                promotional_max=promotional_max,
                has_code=has_code,
                words_min=words_min,
                published_after=published_after,
                sort=sort,
                limit=limit,
                offset=offset,
            )
            data, total = content.list_content(t.store, req.query)
            return _ok(
                envelope(
                    data,
                    total=total,
                    limit=limit,
                    offset=offset,
                    sort=req.query.sort,
                    applied=req.applied,
                    unknown=_unrecognized(ctx, set(params.CONTENT_PARAMS)),
                )
            )

        return _run(run)

    # -------------------------------------------------------------- get_page
    @server.tool(
        annotations=READ,
        description=(
            "One page as JSON: url, canonical_url, title, domain, shelves, facets, "
            "inlinks_body, assets, screenshots, fetch history and the pages citing it "
            "(cited_by), plus its full markdown unless markdown=false. The markdown can be long "
            "(tens of thousands of characters): for the text alone, with a size limit, use "
            "get_page_markdown; for metadata alone pass markdown=false (~2-5k characters)."
        ),
    )
    def get_page(
        ctx: Context,
        page_id: PageId,
        markdown: Annotated[bool, Field(description="include the page's markdown")] = True,
        explain: Annotated[
            bool, Field(description="add the signals behind each facet value")
        ] = False,
    ) -> Annotated[CallToolResult, Page]:
        def run() -> CallToolResult:
            t.require_read(ctx)
            return _ok(content.get_page(t.store, page_id, markdown=markdown, explain=explain))

        return _run(run)

    # ----------------------------------------------------- get_page_markdown
    @server.tool(
        annotations=READ,
        description=(
            "The text of one page as markdown, starting with a YAML frontmatter block (id, url, "
            "canonical_url, title, domain, locale, type, published, fetched_at, words). Use it "
            "to read a page found with search or list_content. Returns at most max_chars "
            f"characters (default {DEFAULT_MAX_CHARS}); `truncated` and `next_offset` say when "
            "there is more, and the text ends with a note saying how to get it."
        ),
    )
    def get_page_markdown(
        ctx: Context,
        page_id: PageId,
        max_chars: MaxChars = DEFAULT_MAX_CHARS,
        offset: Offset = 0,
    ) -> Annotated[CallToolResult, MarkdownPart]:
        def run() -> CallToolResult:
            t.require_read(ctx)
            params.check_int("max_chars", max_chars, 1, MAX_MAX_CHARS)
            params.check_int("offset", offset, 0)
            text = content.page_markdown(t.store, page_id)
            pid = content.normalize_page_id(page_id)
            return _markdown_result({"page_id": pid}, text, offset, max_chars)

        return _run(run)

    # ------------------------------------------------------------ get_domain
    @server.tool(
        annotations=READ,
        description=(
            "The record of one crawled company domain: coverage (known and indexed pages, "
            "buckets, an estimate range of the site's total public pages), health (robots.txt, "
            "error rate, response time, last job), properties per language, sitemaps, changes "
            "since the previous crawl, domains it links to, and its shelves. Use it to judge "
            "how complete and fresh the corpus is for a company. A few thousand characters."
        ),
    )
    def get_domain(ctx: Context, domain: Domain) -> JSON:
        def run() -> CallToolResult:
            t.require_read(ctx)
            return _ok(domains.get_domain(t.store, t.settings, domain))

        return _run(run)

    # --------------------------------------------------- get_domain_markdown
    @server.tool(
        annotations=READ,
        description=(
            "Many pages of one domain bundled into one markdown document: a frontmatter block "
            "(domain, pages_included, pages_left_out, filters), then each page as a level-1 "
            "heading with its source URL and body. Use it to read a company's site (or its "
            "docs: type=['docs'], technicality_min) in one go. Large: pass max_chars (default "
            f"{DEFAULT_MAX_CHARS}) and page on with offset; `truncated` says when there is more."
        ),
    )
    def get_domain_markdown(
        ctx: Context,
        domain: Domain,
        limit: Annotated[
            int,
            _number_schema("integer", 1, s.bundle_limit),
            Field(description="most pages in the bundle"),
        ] = 100,
        type: Types = None,
        technicality_min: TechnicalityMin = None,
        max_chars: MaxChars = DEFAULT_MAX_CHARS,
        offset: Offset = 0,
    ) -> Annotated[CallToolResult, MarkdownPart]:
        def run() -> CallToolResult:
            t.require_read(ctx)
            params.check_int("limit", limit, 1, t.settings.bundle_limit)
            params.check_int("max_chars", max_chars, 1, MAX_MAX_CHARS)
            params.check_int("offset", offset, 0)
            root = domains.parse_domain(t.settings, domain)
            text = bundle.domain_markdown_text(
                t.store,
                root,
                limit=limit,
                types=params.split_list("type", params.join_list(type), TYPES),
                technicality_min=params.check_score("technicality_min", technicality_min),
            )
            return _markdown_result({"domain": root}, text, offset, max_chars)

        return _run(run)

    # ------------------------------------------------------ list_collections
    @server.tool(
        annotations=READ,
        description=(
            "The shelves (collections) that group companies: slug, name, description, number "
            "of companies and how many are crawled. Use the slug with get_collection, or as "
            "the `collection` filter of search and list_content. Small."
        ),
    )
    def list_collections(
        ctx: Context,
        limit: Annotated[
            int, _number_schema("integer", 1, 100), Field(description="shelves")
        ] = 100,
        offset: ListOffset = 0,
    ) -> JSON:
        def run() -> CallToolResult:
            t.require_read(ctx)
            params.check_int("limit", limit, 1, 100)
            params.check_int("offset", offset, 0, params.MAX_OFFSET)
            data, total = collections.list_collections(t.store, limit, offset)
            return _ok(
                envelope(
                    data,
                    total=total,
                    limit=limit,
                    offset=offset,
                    sort="slug",
                    applied={},
                    unknown=_unrecognized(ctx, {"limit", "offset"}),
                )
            )

        return _run(run)

    # -------------------------------------------------------- get_collection
    @server.tool(
        annotations=READ,
        description=(
            "One shelf with its members: each company's domain, the reason it is on the shelf, "
            "who placed it (person or agent) and when, whether it is crawled and how many pages "
            "it has. About 200 characters per member."
        ),
    )
    def get_collection(ctx: Context, slug: Slug) -> JSON:
        def run() -> CallToolResult:
            t.require_read(ctx)
            return _ok(collections.get_collection(t.store, slug))

        return _run(run)

    # --------------------------------------------------------------- get_job
    @server.tool(
        annotations=READ,
        description=(
            "Status of a crawl job (as returned by start_crawl): state (queued, running, "
            "completed, partial, failed, cancelled), progress (indexed, pending, pages per "
            "minute, ETA range) and coverage buckets accounting for every URL found, with "
            "sample URLs. Poll it after start_crawl; a few thousand characters."
        ),
    )
    def get_job(
        ctx: Context,
        job_id: Annotated[str, Field(min_length=1, max_length=100, description="job id (job_...)")],
    ) -> Annotated[CallToolResult, Job]:
        def run() -> CallToolResult:
            t.require_read(ctx)
            jid = job_id.strip()
            jid = jid if jid.startswith("job_") else f"job_{jid}"
            return _ok(
                jobs.job_view(t.store, jobs.get_job(t.store, jid), embeddings=t.settings.embeddings)
            )

        return _run(run)

    # ----------------------------------------------------------- list_facets
    @server.tool(
        annotations=READ,
        description=(
            "Every facet (type, format, audience, topics, locale, has_code, the scores, words, "
            "published) with its filter parameter, its values with one-line definitions and "
            "the number of pages per value, optionally counted within domains or a shelf. Call "
            "it before filtering search or list_content to use values that exist. About 10k "
            "characters."
        ),
    )
    def list_facets(ctx: Context, domain: Domains = None, collection: Collection = None) -> JSON:
        def run() -> CallToolResult:
            t.require_read(ctx)
            domains = params.parse_domains(
                params.join_list(domain), allow_private_suffixes=t.settings.allow_private_suffixes
            )
            slug = params.parse_collection(collection)
            data, pages = facets.list_facets(t.store, domains=domains, collection=slug)
            applied: dict[str, Any] = {}
            if domains:
                applied["domain"] = domains
            if slug:
                applied["collection"] = slug
            return _ok(
                envelope(
                    data,
                    total=len(data),
                    limit=len(data),
                    offset=0,
                    sort="facet",
                    applied=applied,
                    unknown=_unrecognized(ctx, {"domain", "collection"}),
                    pages=pages,
                )
            )

        return _run(run)

    # ----------------------------------------------------------- start_crawl
    @server.tool(
        annotations=WRITE,
        description=(
            "Needs an API key (HTTP header Authorization: Bearer <key>). Start crawling a "
            "company's root domain (e.g. example.com; its subdomains are included) to add its "
            "pages to the corpus. Returns at once with a job_id; follow it with get_job. A "
            "domain with a running job is refused (conflict) naming that job. Small answer."
        ),
    )
    def start_crawl(
        ctx: Context,
        domain: Annotated[
            str,
            Field(min_length=1, max_length=253, description="root domain, e.g. example.com"),
        ],
        budget: Annotated[
            int,
            _number_schema("integer", 1, s.max_budget),
            Field(description="most pages fetched by this job"),
        ] = s.default_budget,
        refresh: Annotated[
            bool, Field(description="re-fetch pages already indexed (conditional requests)")
        ] = False,
        force: Annotated[
            bool,
            Field(description="fetch unconditionally; start even if crawled recently"),
        ] = False,
        shots: Annotated[
            int | bool,
            Field(description="screenshot up to this many pages (true = 10)"),
        ] = 0,
    ) -> Annotated[CallToolResult, CrawlAccepted]:
        def run() -> CallToolResult:
            key = t.require_write(ctx)
            body = {
                "domain": domain,
                "budget": budget,
                "refresh": refresh,
                "force": force,
                "shots": shots,
            }
            parsed = crawls.parse_crawl_body(body, t.settings)
            limiter = getattr(t.state, "rate_limiter", None)
            job = crawls.start_crawl(t.store, parsed, key["id"], limiter=limiter)
            wake = getattr(t.state, "wake_worker", None)
            if wake:
                wake()
            return _ok({"job_id": job.id, "state": job.state, "domain": job.domain})

        return _run(run)

    # -------------------------------------------------------- place_on_shelf
    @server.tool(
        annotations=WRITE,
        description=(
            "Needs an API key (HTTP header Authorization: Bearer <key>). Put a company (root "
            "domain, crawled or not) on an existing shelf (see list_collections) with the "
            "reason it belongs there; recorded as placed_by=agent. Placing it again updates "
            "the reason. Returns the membership (created=false when it was there already)."
        ),
    )
    def place_on_shelf(
        ctx: Context,
        collection: Slug,
        domain: Domain,
        reason: Annotated[
            str,
            Field(min_length=1, max_length=1000, description="why the company belongs there"),
        ],
    ) -> JSON:
        def run() -> CallToolResult:
            t.require_write(ctx)
            body = {"domain": domain, "reason": reason, "placed_by": "agent"}
            member_body = collections.parse_member_body(body, t.settings)
            member, created = collections.add_member(t.store, collection, **member_body)
            return _ok({"collection": collection, **member, "created": created})

        return _run(run)

    return server
