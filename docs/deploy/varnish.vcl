# Varnish in front of Folio, purged on publish (docs/decisions/0045). Debian's `varnish`
# package (7.1): `varnishd -a 127.0.0.1:6081 -f /etc/varnish/folio.vcl`, and Folio started
# with PURGE_URL=http://127.0.0.1:6081/ (PURGE_METHOD BAN and PURGE_HEADER X-Purge-Keys are
# the defaults). Every public answer of Folio names what it depends on in Surrogate-Key
# (`page-<slug>`, `feed`, `sitemap`, `media-<hash>`, and `site` on all of them); after each
# committed change Folio sends one BAN naming the keys it made stale, and this VCL bans every
# object whose Surrogate-Key holds one of them. The ban tests `obj.` only, so the ban lurker
# removes banned objects in the background instead of each request testing them.
vcl 4.1;

backend folio {
    .host = "127.0.0.1";
    .port = "3000";
    # No longer than Folio's echo of each purge (ECHO_MS in src/lib/http/purge.ts, 5 s): a
    # fetch in flight when a change committed can be stored after the change's ban, and the
    # echo bans it again; one slower than this is not stored at all. Folio's pages take
    # milliseconds.
    .first_byte_timeout = 5s;
}

# Who may ban: Folio's instances. Add their addresses if they run on other machines.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "BAN") {
        if (!client.ip ~ purgers) {
            return (synth(403, "Forbidden"));
        }
        # Keys are Folio's: lower-case words joined by single hyphens, separated by spaces. Only
        # those are accepted, so nothing a purger sends can widen the ban's regular expression.
        if (req.http.X-Purge-Keys !~ "^[a-z0-9]+(-[a-z0-9]+)*( [a-z0-9]+(-[a-z0-9]+)*)*$") {
            return (synth(400, "X-Purge-Keys must be keys separated by single spaces"));
        }
        ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(req.http.X-Purge-Keys, " ", "|") + ")(\s|$)");
        return (synth(200, "Banned"));
    }
    # Live co-editing's WebSocket (/preview/<slug>?live, docs/decisions/0050): piped through,
    # bytes both ways, never cached (a pass cannot carry an upgrade).
    if (req.http.Upgrade ~ "(?i)^websocket$") {
        return (pipe);
    }
    # Everything else follows Varnish's built-in rules: a request with a cookie or an
    # Authorization header (an editor) goes to Folio uncached, as does any method but GET/HEAD.
}

sub vcl_pipe {
    # A piped request's upgrade is passed on (Varnish drops hop-by-hop headers otherwise).
    if (req.http.Upgrade) {
        set bereq.http.Upgrade = req.http.Upgrade;
        set bereq.http.Connection = req.http.Connection;
    }
}

sub vcl_backend_response {
    # What Folio names keys for is public and purged when it changes: kept an hour rather than
    # the minute of s-maxage (which holds for caches nobody purges). Anything without keys
    # (previews, refusals, health) keeps Folio's own Cache-Control, which says no-store.
    if (beresp.http.Surrogate-Key && beresp.ttl > 0s) {
        set beresp.ttl = 1h;
    }
}

sub vcl_deliver {
    # Whether this answer came from the cache, for people and tests alike.
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
