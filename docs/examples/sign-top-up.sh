#!/bin/sh
# Signs a Forma top-up token (docs/community.md, "Top-up tokens") with openssl, as a host's back end would after an
# in-app payment. Prints the compact JWS on one line.
#
#   HS256: sign-top-up.sh hs256 <secret ptk_…> <company id> <user id> <points> [exp]
#   EdDSA: sign-top-up.sh eddsa <private key .pem> <company id> <user id> <points> [exp]
#
# exp is seconds since 1970 (default: five minutes from now). The user id is written into JSON as it is: it must
# not contain `"` or `\`. The token id (jti) is 16 random bytes in hex.
set -eu
algorithm=$1 key=$2 company=$3 user=$4 points=$5
exp=${6:-$(( $(date +%s) + 300 ))}

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

case $algorithm in
  hs256) alg=HS256 ;;
  eddsa) alg=EdDSA ;;
  *) echo "algorithm must be hs256 or eddsa" >&2; exit 64 ;;
esac
jti=$(openssl rand -hex 16)
header=$(printf '{"alg":"%s","typ":"JWT"}' "$alg" | b64url)
payload=$(printf '{"jti":"%s","sub":"%s","points":%d,"exp":%d,"aud":"%s"}' "$jti" "$user" "$points" "$exp" "$company" | b64url)
if [ "$alg" = HS256 ]; then
  signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -hmac "$key" -binary | b64url)
else
  input=$(mktemp)
  trap 'rm -f "$input"' EXIT
  printf '%s.%s' "$header" "$payload" > "$input"
  signature=$(openssl pkeyutl -sign -inkey "$key" -rawin -in "$input" | b64url)
fi
printf '%s.%s.%s\n' "$header" "$payload" "$signature"
