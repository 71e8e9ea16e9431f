# Production-like image of the server; see docker-compose.yml.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --bin tavoliere

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /app tavoliere
WORKDIR /app
COPY --from=build /src/target/release/tavoliere /usr/local/bin/tavoliere
COPY config ./config
# Served from the working directory (`/static`); templates and catalogues are compiled in.
COPY static ./static
USER tavoliere
ENV TAVOLIERE_ENVIRONMENT=production
EXPOSE 8000
CMD ["tavoliere", "serve"]
