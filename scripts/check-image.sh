#!/usr/bin/env bash
# The Cloud Run image (Dockerfile, docs/decisions/0022) builds, and its server answers /api/health on PostgreSQL
# and stops cleanly on SIGTERM. Uses Debian's podman (rootful, as CI runs), since the Docker client here has no
# daemon.
#
#   DATABASE_URL=postgres://… bash scripts/check-image.sh
#
# Docker Hub is out of reach on these machines, so unless node:24-bookworm-slim can be pulled, a stand-in for it
# is made: Debian bookworm from debootstrap (through Debian's mirror), the Node 24 that runs this script, the
# machine's npm, and the machine's CA bundle (its egress may go through a TLS proxy). Everything after the
# `FROM` lines is the Dockerfile's own.
#
# What these machines need, found in November 2026: runc, as crun refuses their cgroups ("cgroups in hybrid
# mode not supported"); default ulimits below the machine's hard limits (podman asks for more, and the runtime
# may not raise them: "setrlimit RLIMIT_NPROC: Operation not permitted"); host networking.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL database for the server in the image}"
node_bin=${NODE:-$(command -v node)}
# npm as Debian installs it (/usr/lib/node_modules/npm): the project's node_modules may be pruned by now.
npm_dir=${NPM_DIR:-/usr/lib/node_modules/npm}
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null || { echo "check-image: $tool is missing (apt-get install podman runc debootstrap)"; exit 1; }
done

work=$(mktemp -d)
container=tutorbook-check-$$
cleanup() {
  podman rm -f "$container" >/dev/null 2>&1 || true
  # The image and its build stage (about 2 GB together); the stand-in base is kept for the next run.
  podman rmi -f localhost/tutorbook:check >/dev/null 2>&1 || true
  podman image prune -f >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
cat >"$work/containers.conf" <<END
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
END
export CONTAINERS_CONF=$work/containers.conf
pod() { podman --runtime runc "$@"; }

base=docker.io/library/node:24-bookworm-slim
if ! podman image exists "$base" && ! timeout 60 podman pull -q "$base" >/dev/null 2>&1; then
  echo "check-image: $base cannot be pulled here"
  base=localhost/tutorbook-node-standin:24
  if ! podman image exists "$base"; then
    echo "check-image: making $base from Debian bookworm, Node $("$node_bin" --version) and npm $("$node_bin" "$npm_dir/bin/npm-cli.js" --version)"
    rootfs=$work/rootfs
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
      { tail -n 20 "$work/debootstrap.log"; exit 1; }
    mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules" "$rootfs/etc/ssl/certs"
    cp "$node_bin" "$rootfs/usr/local/bin/node"
    cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
    cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
    # The official image's user, which the Dockerfile runs as.
    chroot "$rootfs" useradd --uid 1000 --create-home --shell /bin/bash node
    tar -C "$rootfs" -c . | podman import -q \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
      --change 'CMD ["node"]' - "$base" >/dev/null
    rm -rf "$rootfs"
  fi
fi

echo "check-image: building the Dockerfile on $base"
pod build -q --pull=never --network host --build-arg "NODE_IMAGE=$base" -t localhost/tutorbook:check . >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; exit 1; }

port=$("$node_bin" -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
# Production does not start without a VAPID key pair (web push): a P-256 pair, as web-push's keys are written.
vapid_jwk=$("$node_bin" -e "console.log(JSON.stringify(require('node:crypto').generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })))")
vapid_key() {
  "$node_bin" -e "const k = JSON.parse(process.argv[1]); const b = (s) => Buffer.from(s, 'base64url');
    console.log('$1' === 'private' ? k.d : Buffer.concat([Buffer.from([4]), b(k.x), b(k.y)]).toString('base64url'))" "$vapid_jwk"
}
pod run -d --name "$container" --network host \
  -e PORT="$port" -e HOST=127.0.0.1 -e DATABASE_URL="$DATABASE_URL" \
  -e AUTH_SECRET="$(head -c 32 /dev/urandom | base64 | tr -d '=+/')" -e PUBLIC_URL=https://tutorbook.example \
  -e VAPID_PUBLIC_KEY="$(vapid_key public)" -e VAPID_PRIVATE_KEY="$(vapid_key private)" \
  -e 'PAYMENT_EFT_DETAILS=Bank: FNB; Account number: 62 1234 5678; Branch code: 250655' \
  localhost/tutorbook:check >/dev/null
health=''
for _ in $(seq 1 120); do
  health=$(curl -fsS "http://127.0.0.1:$port/api/health" 2>/dev/null) && break
  sleep 0.5
done
if [ "$health" != '{"status":"ok","database":"ok"}' ]; then
  echo "check-image: the image's server did not answer /api/health (got: ${health:-nothing})"
  podman logs "$container" 2>&1 | tail -n 20
  exit 1
fi
user=$(podman exec "$container" id -un)
pod stop -t 20 "$container" >/dev/null
code=$(podman inspect -f '{{.State.ExitCode}}' "$container")
if [ "$user" != node ] || [ "$code" != 0 ]; then
  echo "check-image: the server ran as $user and stopped with exit code $code (want node, 0)"
  podman logs "$container" 2>&1 | tail -n 20
  exit 1
fi
echo "check-image: ✓ the image builds; its server (as $user, production, PostgreSQL) answers $health and stops on SIGTERM"
