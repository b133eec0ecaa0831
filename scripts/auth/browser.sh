#!/usr/bin/env bash
# The user in scripts/auth/run.sh: given the authorization URL (its last argument), it signs in
# on oidc-provider's development login page (any login and password), consents on its consent
# page, and follows the redirect to the client's loopback receiver, all with curl and one
# cookie jar, as a browser would. Run by the walk example (`walk --oauth --browser …`).
set -euo pipefail

url=${!#}
origin=$(printf '%s' "$url" | grep -oE '^https?://[^/]+')
jar=$(mktemp)
trap 'rm -f "$jar"' EXIT

# page CURL-ARGUMENTS...: the page at the end of the redirects.
page() { curl -sS -L --max-redirs 10 --max-time 20 -b "$jar" -c "$jar" "$@"; }

# form_action: the action of the page's first form (made absolute).
form_action() {
    local action
    action=$(grep -o 'action="[^"]*"' | head -1 | sed 's/^action="//; s/"$//; s/&amp;/\&/g')
    [ -n "$action" ] || return 1
    case $action in
    /*) printf '%s%s' "$origin" "$action" ;;
    *) printf '%s' "$action" ;;
    esac
}

login=$(page "$url" | form_action) || {
    echo "browser: no login form at $url" >&2
    exit 1
}
consent=$(page --data-urlencode prompt=login --data-urlencode login=alice \
    --data-urlencode password=any "$login" | form_action) || {
    echo "browser: no consent form after signing in at $login" >&2
    exit 1
}
# Consenting redirects to the client's receiver, which answers with a short page.
page --data-urlencode prompt=consent "$consent" >/dev/null
