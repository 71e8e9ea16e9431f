# syntax=docker/dockerfile:1
# The server's image: `docker compose up --build` (docker-compose.yml), or
# `docker build -t tavoliere .` and run it with TAVOLIERE_DATABASE__URL set.
#
# Four stages: cargo-chef's recipe of the dependencies (`planner`), the dependencies built
# from the recipe alone (a layer that stays cached until Cargo.toml or Cargo.lock change),
# the server built on top (`build`), and a slim runtime with the binary, run as a non-root
# user. The binary is built with the `container` profile: the release profile without the
# debug info that `[profile.release]` keeps for profiling.

ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=trixie

FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS chef
RUN cargo install cargo-chef --locked --version 0.1.78
WORKDIR /src

FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS build
COPY --from=planner /src/recipe.json recipe.json
RUN cargo chef cook --profile container --locked --recipe-path recipe.json --package tavoliere
COPY . .
# The context has no .git: `tavoliere --version` names the commit given here, e.g.
# `docker build --build-arg TAVOLIERE_BUILD_COMMIT=$(git rev-parse --short=12 HEAD) .`
ARG TAVOLIERE_BUILD_COMMIT=unknown
ENV TAVOLIERE_BUILD_COMMIT=${TAVOLIERE_BUILD_COMMIT}
RUN cargo build --profile container --locked --package tavoliere --bin tavoliere

FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# Nothing installed: the binary links no OpenSSL (rustls, `cargo tree -i openssl-sys` is
# empty, `.ci/run` checks it) and is its own health check (`tavoliere ready`), so neither
# curl nor the ca-certificates package (which pulls in openssl) is needed. The CA bundle,
# for the SMTP relay's TLS, is copied from the build stage (rustls-native-certs reads
# /etc/ssl/certs); rebuild the image to take Debian's updates of it.
RUN groupadd --system --gid 10001 tavoliere \
    && useradd --system --uid 10001 --gid tavoliere --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin tavoliere
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
WORKDIR /app
COPY --from=build /src/target/container/tavoliere /usr/local/bin/tavoliere
# The configuration and the static files are built into the binary; a config/ directory
# mounted at /app/config (or TAVOLIERE_CONFIG_DIR) overrides values of the built-in one.
# Numeric, so that a runtime that refuses root (runAsNonRoot) can check it.
USER 10001:10001
ENV TAVOLIERE_ENVIRONMENT=production \
    TAVOLIERE_APPLICATION__HOST=0.0.0.0 \
    TAVOLIERE_APPLICATION__PORT=8000 \
    RUST_LOG=info,sqlx=warn,tower_sessions=warn
EXPOSE 8000
# /readyz answers 200 while the server reaches its database and is not stopping (/healthz:
# the process runs); `tavoliere ready` asks it on the configured port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD ["tavoliere", "ready"]
STOPSIGNAL SIGTERM
CMD ["tavoliere", "serve"]
