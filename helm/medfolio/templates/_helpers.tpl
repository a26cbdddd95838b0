{{/*
Shared helpers. Most take a dict: (dict "root" $ "app" "gateway" "values" $.Values.gateway).
*/}}

{{/* The applications, in a fixed order. Each has a block of the same name in values.yaml. */}}
{{- define "medfolio.appNames" -}}
gateway audit identity documents summary wallet billing notifications connections
{{- end }}

{{/* The HTTP port every application listens on (PORT); the probes and Services use it. */}}
{{- define "medfolio.containerPort" -}}
3000
{{- end }}

{{- define "medfolio.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Name of an application's objects: <release>-<app> (the JWKS URL convention relies on it). */}}
{{- define "medfolio.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .app | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select an application's pods. Never change them: Deployments' selectors are immutable. */}}
{{- define "medfolio.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app }}
{{- end }}

{{/* Labels on every object. */}}
{{- define "medfolio.labels" -}}
{{ include "medfolio.selectorLabels" . }}
app.kubernetes.io/part-of: medfolio
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ include "medfolio.chart" .root }}
{{- end }}

{{/* Labels that select every pod of the release (for the default-deny NetworkPolicy). */}}
{{- define "medfolio.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Image reference: <registry>/<repository>:<tag>, or @<digest> when a digest is given. */}}
{{- define "medfolio.image" -}}
{{- $g := .root.Values.global.image -}}
{{- $registry := .values.image.registry | default $g.registry -}}
{{- $repository := .values.image.repository | default .app -}}
{{- $tag := .values.image.tag | default $g.tag | default .root.Chart.AppVersion -}}
{{- if .values.image.digest -}}
{{- printf "%s/%s@%s" $registry $repository .values.image.digest -}}
{{- else -}}
{{- printf "%s/%s:%s" $registry $repository $tag -}}
{{- end -}}
{{- end }}

{{/* A pod setting: the application's own value if set, else the one in `defaults`. */}}
{{- define "medfolio.podSetting" -}}
{{- $own := index .values .key -}}
{{- if $own -}}
{{- toYaml $own -}}
{{- else -}}
{{- toYaml (index .root.Values.defaults .key) -}}
{{- end -}}
{{- end }}

{{/* Name of the Secret with an application's database URL, and its key. */}}
{{- define "medfolio.databaseSecret" -}}
{{- .values.database.existingSecret | default .root.Values.global.database.existingSecret -}}
{{- end }}
{{- define "medfolio.databaseUrlKey" -}}
{{- .values.database.urlKey | default .root.Values.global.database.urlKey -}}
{{- end }}

{{/* Name of the Secret an application's secretEnv is read from. */}}
{{- define "medfolio.appSecret" -}}
{{- .values.existingSecret | default .root.Values.global.appSecret.existingSecret -}}
{{- end }}

{{/* Name of the Secret holding INTERNAL_API_TOKEN (shared by the gateway, identity, documents, summary, wallet and connections). Takes the root context. */}}
{{- define "medfolio.internalApiTokenSecret" -}}
{{- .Values.global.internalApiToken.existingSecret | default .Values.global.appSecret.existingSecret -}}
{{- end }}

{{/*
Secret variables an application cannot run without, and what each holds (for validateValues'
messages). They must come from a Secret: secretEnv, or a valueFrom in extraEnv.
*/}}
{{- define "medfolio.requiredSecretEnv" -}}
{{- /* Service mode refuses to start without these (security 25.14); the chart says so at install time. */}}
{{- $links := "the key that signs download links, 32+ random characters, the same in every service that makes or serves them" }}
{{- $gatewayLinks := or (eq .Values.global.s3.downloads "gateway") (not .Values.gateway.s3.enabled) }}
gateway:
{{- if $gatewayLinks }}
  STORAGE_URL_SIGNING_KEY: {{ $links }}
{{- end }}
identity:
  JWT_SIGNING_KEYS: the JSON array of private EC P-256 JWKs (each with a kid) that sign access tokens
  IDENTITY_SECRET: the HMAC key of verification codes, 32+ characters
{{- if or (eq .Values.global.s3.downloads "gateway") (not .Values.identity.s3.enabled) }}
  STORAGE_URL_SIGNING_KEY: {{ $links }}
{{- end }}
documents:
{{- if or (eq .Values.global.s3.downloads "gateway") (not .Values.documents.s3.enabled) }}
  STORAGE_URL_SIGNING_KEY: {{ $links }}
{{- end }}
summary:
  SHARE_LINK_KEY: the share links' own key, 32 random bytes in base64, held by the summary service only
notifications:
  SMTP_URL: the SMTP relay, smtp://user:password@host:587 or smtps://user:password@host:465
  NOTIFICATIONS_ENCRYPTION_KEY: the key that encrypts stored messages, 32 random bytes in base64
wallet:
  WALLET_SIGNER_CERT: the Apple pass type certificate (PEM)
  WALLET_SIGNER_KEY: the pass type certificate's private key (PEM)
  WALLET_WWDR_CERT: Apple's WWDR intermediate certificate (PEM)
{{- if or (eq .Values.global.s3.downloads "gateway") (not .Values.wallet.s3.enabled) }}
  STORAGE_URL_SIGNING_KEY: {{ $links }}
{{- end }}
connections:
  CONNECTIONS_TOKEN_KEY: 'the key that seals the hospitals'' tokens at rest, 32 random bytes in base64 (openssl rand -base64 32), the same in every connections pod'
{{- end }}

{{/*
Secret variables an application may read, only from a Secret (secretEnv, or a valueFrom in
extraEnv): validateValues refuses them in env. (The required ones are in medfolio.requiredSecretEnv.)
*/}}
{{- define "medfolio.optionalSecretEnv" -}}
gateway: [STORAGE_ENCRYPTION_KEYS]
identity: [OIDC_PROVIDERS, STORAGE_ENCRYPTION_KEYS]
documents: [STORAGE_ENCRYPTION_KEYS]
summary: [OPENAI_API_KEY]
wallet: [WALLET_SIGNER_KEY_PASSPHRASE, APNS_KEY, GOOGLE_WALLET_SERVICE_ACCOUNT, STORAGE_ENCRYPTION_KEYS]
billing: [STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET]
connections: [SMART_CLIENT_JWK]
{{- end }}

{{/* identity's base URL inside the cluster (the gateway's IDENTITY_INTERNAL_URL). Takes the root context. */}}
{{- define "medfolio.identityUrl" -}}
{{- printf "http://%s:%s" (include "medfolio.fullname" (dict "root" . "app" "identity")) (include "medfolio.containerPort" .) -}}
{{- end }}

{{/* documents' base URL inside the cluster (the gateway's DOCUMENTS_INTERNAL_URL). Takes the root context. */}}
{{- define "medfolio.documentsUrl" -}}
{{- printf "http://%s:%s" (include "medfolio.fullname" (dict "root" . "app" "documents")) (include "medfolio.containerPort" .) -}}
{{- end }}

{{/* wallet's base URL inside the cluster (the gateway's WALLET_INTERNAL_URL: signed pass downloads). Takes the root context. */}}
{{- define "medfolio.walletUrl" -}}
{{- printf "http://%s:%s" (include "medfolio.fullname" (dict "root" . "app" "wallet")) (include "medfolio.containerPort" .) -}}
{{- end }}

{{/* Where the connections pods mount the endpoint directory's ConfigMap (connections.endpoints). Takes the root context. */}}
{{- define "medfolio.endpointsDir" -}}
/etc/medfolio/fhir-endpoints
{{- end }}

{{/* Where the connections pods mount the client registrations' ConfigMap (connections.clientRegistrations). Takes the root context. */}}
{{- define "medfolio.clientRegistrationsDir" -}}
/etc/medfolio/smart-clients
{{- end }}

{{/* A document quota as the documents service reads it: a whole number, or "unlimited". */}}
{{- define "medfolio.quota" -}}
{{- if eq (toString .) "unlimited" -}}unlimited{{- else -}}{{ int64 . }}{{- end -}}
{{- end }}

{{/* Whether an application calls, or serves, the internal HTTP endpoints that INTERNAL_API_TOKEN guards. */}}
{{- define "medfolio.usesInternalToken" -}}
{{- $root := .root -}}
{{- if or (eq .app "identity") (eq .app "documents") (eq .app "wallet") (eq .app "connections") (and (eq .app "gateway") (or $root.Values.identity.enabled $root.Values.documents.enabled $root.Values.wallet.enabled)) (and (eq .app "summary") $root.Values.documents.enabled) -}}
true
{{- end -}}
{{- end }}

{{/* The JWKS URL the gateway verifies tokens with. */}}
{{- define "medfolio.jwksUrl" -}}
{{- if .root.Values.gateway.jwksUrl -}}
{{- .root.Values.gateway.jwksUrl -}}
{{- else -}}
{{- printf "%s/.well-known/jwks.json" (include "medfolio.identityUrl" .root) -}}
{{- end -}}
{{- end }}

{{/*
Environment of an application's container (the Deployment and its migration Job), as an EnvVar
list. Plain variables come first, sorted by name; `env` overrides them and may add more. Variables
read from Secrets follow, unless `env` sets the same name; `extraEnv` comes last.
*/}}
{{- define "medfolio.env" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
{{- $v := .values -}}
{{- $plain := dict
  "MEDFOLIO_MODE" "service"
  "PORT" (include "medfolio.containerPort" .)
  "LOG_LEVEL" $g.logLevel
  "PUBLIC_BASE_URL" $g.publicBaseUrl
  "NATS_STREAM_REPLICAS" (toString $g.nats.streamReplicas)
  "RPC_TIMEOUT_MS" (toString (int64 $g.nats.rpcTimeoutMs))
  "GC_MARKING_TRIGGERS" $g.gcMarkingTriggers
-}}
{{- if $v.database.enabled }}
{{- $_ := set $plain "DATABASE_POOL_SIZE" (toString (int64 $g.database.poolSize)) }}
{{- $_ := set $plain "HOUSEKEEPING_INTERVAL_MINUTES" (toString (int64 $g.housekeeping.intervalMinutes)) }}
{{- $_ := set $plain "OUTBOX_RETENTION_DAYS" (toString (int64 $g.housekeeping.outboxRetentionDays)) }}
{{- $_ := set $plain "PROCESSED_MESSAGES_RETENTION_DAYS" (toString (int64 $g.housekeeping.processedMessagesRetentionDays)) }}
{{- end }}
{{- if not $g.nats.existingSecret }}
{{- $_ := set $plain "NATS_URL" $g.nats.url }}
{{- end }}
{{- if $v.s3.enabled }}
{{- if $g.s3.endpoint }}
{{- $_ := set $plain "S3_ENDPOINT" $g.s3.endpoint }}
{{- end }}
{{- $_ := set $plain "S3_REGION" $g.s3.region }}
{{- $_ := set $plain "S3_BUCKET" $g.s3.bucket }}
{{- $_ := set $plain "S3_FORCE_PATH_STYLE" (toString $g.s3.forcePathStyle) }}
{{- $_ := set $plain "S3_SSE" $g.s3.serverSideEncryption }}
{{- $_ := set $plain "S3_SIGN_PAYLOAD" (toString $g.s3.signPayload) }}
{{- $_ := set $plain "S3_DOWNLOADS" $g.s3.downloads }}
{{- end }}
{{- /*
The gateway and documents stream uploads: with a 1 MB young generation, V8 frees each network
buffer in a cheap scavenge instead of letting hundreds of megabytes wait for full collections
(bench/upload.mjs: twice the throughput, half the CPU and memory growth). The others get 16 MB:
Node sizes the young generation from the machine's memory (up to 64 MB per semi-space on a large
node), and the summary service's RSS then swung by a hundred megabytes with its allocation rate
(the soak, apps/system-e2e/src/soak.soak-spec.ts). The system tests start processes with the same
flags (nodeOptionsFor in apps/system-e2e/src/support/processes.ts). env may override it.
*/}}
{{- if or (eq .app "gateway") (eq .app "documents") }}
{{- $_ := set $plain "NODE_OPTIONS" "--max-semi-space-size=1" }}
{{- else }}
{{- $_ := set $plain "NODE_OPTIONS" "--max-semi-space-size=16" }}
{{- end }}
{{- /* Every application whose config reads the token issuer and audience gets the same ones. */}}
{{- if has .app (list "gateway" "identity" "documents" "wallet") }}
{{- $_ := set $plain "JWT_ISSUER" $g.jwt.issuer }}
{{- $_ := set $plain "JWT_AUDIENCE" $g.jwt.audience }}
{{- end }}
{{- if eq .app "gateway" }}
{{- $_ := set $plain "JWT_JWKS_URL" (include "medfolio.jwksUrl" .) }}
{{- $_ := set $plain "TRUST_PROXY_HOPS" (toString $v.trustProxyHops) }}
{{- if $root.Values.identity.enabled }}
{{- $_ := set $plain "IDENTITY_INTERNAL_URL" (include "medfolio.identityUrl" $root) }}
{{- end }}
{{- if $root.Values.documents.enabled }}
{{- $_ := set $plain "DOCUMENTS_INTERNAL_URL" (include "medfolio.documentsUrl" $root) }}
{{- end }}
{{- if $root.Values.wallet.enabled }}
{{- $_ := set $plain "WALLET_INTERNAL_URL" (include "medfolio.walletUrl" $root) }}
{{- end }}
{{- with (include "medfolio.backendServices" $root) }}
{{- $_ := set $plain "GATEWAY_SERVICES" . }}
{{- end }}
{{- with $v.corsOrigins }}
{{- $_ := set $plain "CORS_ORIGINS" . }}
{{- end }}
{{- $_ := set $plain "RATE_LIMIT_PER_MINUTE" (toString (int64 $v.rateLimitPerMinute)) }}
{{- $_ := set $plain "PROVIDER_RATE_LIMIT_PER_MINUTE" (toString (int64 $v.providerRateLimitPerMinute)) }}
{{- $_ := set $plain "BODY_LIMIT_BYTES" (toString (int64 $v.bodyLimitBytes)) }}
{{- with $v.googleWebClientId }}
{{- $_ := set $plain "GOOGLE_WEB_CLIENT_ID" . }}
{{- end }}
{{- with $v.stripePublishableKey }}
{{- $_ := set $plain "STRIPE_PUBLISHABLE_KEY" . }}
{{- end }}
{{- end }}
{{- if eq .app "audit" }}
{{- with $v.dbRole }}
{{- $_ := set $plain "AUDIT_DB_ROLE" . }}
{{- end }}
{{- end }}
{{- if eq .app "summary" }}
{{- $_ := set $plain "SUMMARY_EXTRACT_CONCURRENCY" (toString (int64 $v.extraction.concurrency)) }}
{{- $_ := set $plain "SUMMARY_OCR_CONCURRENCY" (toString (int64 $v.extraction.ocrConcurrency)) }}
{{- $_ := set $plain "SUMMARY_EXTRACT_LEASE_SECONDS" (toString (int64 $v.extraction.leaseSeconds)) }}
{{- $_ := set $plain "SUMMARY_REBUILD_DELAY_MS" (toString (int64 $v.rebuildDelayMs)) }}
{{- $_ := set $plain "SHARE_VIEW_TOKEN_SECONDS" (toString (int64 $v.shareViewTokenSeconds)) }}
{{- end }}
{{- if eq .app "wallet" }}
{{- with $v.pass.typeId }}
{{- $_ := set $plain "WALLET_PASS_TYPE_ID" . }}
{{- end }}
{{- with $v.pass.teamId }}
{{- $_ := set $plain "WALLET_TEAM_ID" . }}
{{- end }}
{{- $_ := set $plain "WALLET_ORGANIZATION_NAME" $v.pass.organizationName }}
{{- with $v.webServiceUrl }}
{{- $_ := set $plain "WALLET_WEB_SERVICE_URL" . }}
{{- end }}
{{- $_ := set $plain "WALLET_DOWNLOAD_LINK_SECONDS" (toString (int64 $v.downloadLinkSeconds)) }}
{{- with $v.apns.keyId }}
{{- $_ := set $plain "APNS_KEY_ID" . }}
{{- end }}
{{- with $v.apns.teamId }}
{{- $_ := set $plain "APNS_TEAM_ID" . }}
{{- end }}
{{- $_ := set $plain "APNS_HOST" $v.apns.host }}
{{- with $v.googleWallet.issuerId }}
{{- $_ := set $plain "GOOGLE_WALLET_ISSUER_ID" (toString .) }}
{{- end }}
{{- end }}
{{- if eq .app "billing" }}
{{- $_ := set $plain "BILLING_PRICE_BASIC" $v.prices.basic }}
{{- $_ := set $plain "BILLING_PRICE_STANDARD" $v.prices.standard }}
{{- $_ := set $plain "BILLING_PRICE_PLUS" $v.prices.plus }}
{{- $_ := set $plain "BILLING_PRICE_FAMILY" $v.prices.family }}
{{- $_ := set $plain "BILLING_TAX_PERCENT" (toString (int64 $v.taxPercent)) }}
{{- $_ := set $plain "BILLING_GRACE_DAYS" (toString (int64 $v.graceDays)) }}
{{- $_ := set $plain "REFERRAL_INVITES_PER_DAY" (toString (int64 $v.referralInvitesPerDay)) }}
{{- $_ := set $plain "BILLING_SWEEP_INTERVAL_MS" (toString (int64 $v.sweepIntervalMs)) }}
{{- end }}
{{- if and (or (eq .app "summary") (eq .app "connections")) $root.Values.documents.enabled }}
{{- /* summary reads document bytes from documents' internal HTTP route (never from S3 itself); connections hands it fetched records. */}}
{{- $_ := set $plain "DOCUMENTS_INTERNAL_URL" (include "medfolio.documentsUrl" $root) }}
{{- end }}
{{- if eq .app "connections" }}
{{- with $v.endpoints.configMap }}
{{- $_ := set $plain "FHIR_ENDPOINTS_FILE" (printf "%s/%s" (include "medfolio.endpointsDir" $root) $v.endpoints.key) }}
{{- end }}
{{- with $v.clientRegistrations.configMap }}
{{- $_ := set $plain "SMART_CLIENT_REGISTRATIONS_FILE" (printf "%s/%s" (include "medfolio.clientRegistrationsDir" $root) $v.clientRegistrations.key) }}
{{- end }}
{{- $_ := set $plain "SMART_DEFAULT_CLIENT_ID" $v.smart.clientId }}
{{- with $v.smart.redirectUrl }}
{{- $_ := set $plain "CONNECTIONS_REDIRECT_URL" . }}
{{- end }}
{{- $_ := set $plain "SMART_HTTP_TIMEOUT_MS" (toString (int64 $v.smart.httpTimeoutMs)) }}
{{- $_ := set $plain "CONNECTIONS_AUTHORIZE_MINUTES" (toString (int64 $v.smart.authorizeMinutes)) }}
{{- $_ := set $plain "CONNECTIONS_PER_USER" (toString (int64 $v.perUserLimit)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_INTERVAL_MINUTES" (toString (int64 $v.sync.intervalMinutes)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_PAGE_SIZE" (toString (int64 $v.sync.pageSize)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_MAX_PAGES" (toString (int64 $v.sync.maxPages)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_MAX_RESOURCES" (toString (int64 $v.sync.maxResources)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_ATTEMPTS" (toString (int64 $v.sync.attempts)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_BACKOFF_MS" (toString (int64 $v.sync.backoffMs)) }}
{{- $_ := set $plain "CONNECTIONS_SYNC_MAX_ANSWER_BYTES" (toString (int64 $v.sync.maxAnswerBytes)) }}
{{- end }}
{{- if eq .app "identity" }}
{{- with $v.google.clientIds }}
{{- $_ := set $plain "GOOGLE_CLIENT_IDS" . }}
{{- end }}
{{- $_ := set $plain "ACCESS_TOKEN_TTL_SECONDS" (toString (int64 $v.auth.accessTokenTtlSeconds)) }}
{{- $_ := set $plain "REFRESH_TOKEN_TTL_DAYS" (toString (int64 $v.auth.refreshTokenTtlDays)) }}
{{- $_ := set $plain "REFRESH_REUSE_GRACE_SECONDS" (toString (int64 $v.auth.refreshReuseGraceSeconds)) }}
{{- $_ := set $plain "AUTH_FAILURES_PER_ACCOUNT_PER_HOUR" (toString (int64 $v.auth.failuresPerAccountPerHour)) }}
{{- $_ := set $plain "AUTH_FAILURES_PER_IP_PER_HOUR" (toString (int64 $v.auth.failuresPerIpPerHour)) }}
{{- $_ := set $plain "AUTH_FAILURES_PER_ACCOUNT_PER_CLIENT_PER_HOUR" (toString (int64 $v.auth.failuresPerAccountPerClientPerHour)) }}
{{- $_ := set $plain "NPI_REGISTRY_URL" $v.npiRegistry.url }}
{{- $_ := set $plain "NPI_REGISTRY_TIMEOUT_MS" (toString (int64 $v.npiRegistry.timeoutMs)) }}
{{- $_ := set $plain "LICENSE_ATTEMPTS_PER_HOUR" (toString (int64 $v.licenseAttemptsPerHour)) }}
{{- $_ := set $plain "FAMILY_INVITE_DAYS" (toString (int64 $v.family.inviteDays)) }}
{{- $_ := set $plain "FAMILY_PROXY_MONTHS" (toString (int64 $v.family.proxyMonths)) }}
{{- $_ := set $plain "FAMILY_REMINDER_DAYS" (toString (int64 $v.family.reminderDays)) }}
{{- $_ := set $plain "FAMILY_PLANS" $v.family.plans }}
{{- $_ := set $plain "FAMILY_TEEN_SIGN_IN" (toString $v.family.teenSignIn) }}
{{- $_ := set $plain "FAMILY_TEEN_ASSENT_REQUIRED" (toString $v.family.teenAssentRequired) }}
{{- $_ := set $plain "FAMILY_CLAIM_GRACE_DAYS" (toString (int64 $v.family.claimGraceDays)) }}
{{- $_ := set $plain "PROFILE_PICTURE_MAX_BYTES" (toString (int64 $v.profilePictureMaxBytes)) }}
{{- end }}
{{- if eq .app "documents" }}
{{- $_ := set $plain "DOCUMENT_MAX_FILE_BYTES" (toString (int64 $v.uploads.maxFileBytes)) }}
{{- $_ := set $plain "DOCUMENT_MAX_FILES_PER_UPLOAD" (toString (int64 $v.uploads.maxFilesPerUpload)) }}
{{- $_ := set $plain "ZIP_MAX_ENTRIES" (toString (int64 $v.zip.maxEntries)) }}
{{- $_ := set $plain "ZIP_MAX_UNCOMPRESSED_BYTES" (toString (int64 $v.zip.maxUncompressedBytes)) }}
{{- $_ := set $plain "ZIP_MAX_COMPRESSION_RATIO" (toString (int64 $v.zip.maxCompressionRatio)) }}
{{- $_ := set $plain "DOCUMENT_QUOTA_FREE" (include "medfolio.quota" $v.quotas.free) }}
{{- $_ := set $plain "DOCUMENT_QUOTA_BASIC" (include "medfolio.quota" $v.quotas.basic) }}
{{- $_ := set $plain "DOCUMENT_QUOTA_STANDARD" (include "medfolio.quota" $v.quotas.standard) }}
{{- $_ := set $plain "DOCUMENT_QUOTA_PLUS" (include "medfolio.quota" $v.quotas.plus) }}
{{- $_ := set $plain "DOCUMENT_QUOTA_FAMILY" (include "medfolio.quota" $v.quotas.family) }}
{{- $_ := set $plain "DOWNLOAD_LINK_SECONDS" (toString (int64 $v.links.downloadSeconds)) }}
{{- $_ := set $plain "THUMBNAIL_URL_SECONDS" (toString (int64 $v.links.thumbnailSeconds)) }}
{{- $_ := set $plain "THUMBNAIL_SOURCE_MAX_BYTES" (toString (int64 $v.thumbnailSourceMaxBytes)) }}
{{- $_ := set $plain "UNFINISHED_UPLOAD_PURGE_SECONDS" (toString (int64 $v.unfinishedUploadPurgeSeconds)) }}
{{- with $v.clamd.url }}
{{- $_ := set $plain "CLAMD_URL" . }}
{{- end }}
{{- $_ := set $plain "CLAMD_FAIL_OPEN" (toString $v.clamd.failOpen) }}
{{- $_ := set $plain "CLAMD_TIMEOUT_MS" (toString (int64 $v.clamd.timeoutMs)) }}
{{- end }}
{{- if eq .app "notifications" }}
{{- $_ := set $plain "MAIL_FROM" $v.mail.from }}
{{- $_ := set $plain "SUPPORT_EMAIL" $v.mail.supportEmail }}
{{- $_ := set $plain "MAIL_GIVE_UP_AFTER_HOURS" (toString (int64 $v.mail.giveUpAfterHours)) }}
{{- $_ := set $plain "MAIL_RETENTION_DAYS" (toString (int64 $v.mail.retentionDays)) }}
{{- $_ := set $plain "CONTACT_PRIORITY_HOURS" (toString (int64 $v.contact.priorityHours)) }}
{{- $_ := set $plain "CONTACT_STANDARD_HOURS" (toString (int64 $v.contact.standardHours)) }}
{{- end }}
{{- range $name, $value := $v.env }}
{{- $_ := set $plain $name (toString $value) }}
{{- end }}
{{- $fromSecret := list -}}
{{- if $g.nats.existingSecret }}
{{- $fromSecret = append $fromSecret (list "NATS_URL" $g.nats.existingSecret $g.nats.urlKey) }}
{{- end }}
{{- if $v.database.enabled }}
{{- $fromSecret = append $fromSecret (list "DATABASE_URL" (include "medfolio.databaseSecret" .) (include "medfolio.databaseUrlKey" .)) }}
{{- end }}
{{- if $v.s3.enabled }}
{{- $fromSecret = append $fromSecret (list "S3_ACCESS_KEY_ID" $g.s3.existingSecret $g.s3.accessKeyIdKey) }}
{{- $fromSecret = append $fromSecret (list "S3_SECRET_ACCESS_KEY" $g.s3.existingSecret $g.s3.secretAccessKeyKey) }}
{{- end }}
{{- range $v.secretEnv }}
{{- $fromSecret = append $fromSecret (list . (include "medfolio.appSecret" $) .) }}
{{- end }}
{{- if and (eq .app "gateway") $v.redis.existingSecret }}
{{- $fromSecret = append $fromSecret (list "REDIS_URL" $v.redis.existingSecret $v.redis.urlKey) }}
{{- end }}
{{- /* The gateway, identity and documents read INTERNAL_API_TOKEN from the same Secret and key. */}}
{{- if include "medfolio.usesInternalToken" . }}
{{- $fromSecret = append $fromSecret (list "INTERNAL_API_TOKEN" (include "medfolio.internalApiTokenSecret" $root) $g.internalApiToken.key) }}
{{- end }}
{{- range $name, $value := $plain }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- range $fromSecret }}
{{- if not (hasKey $plain (index . 0)) }}
- name: {{ index . 0 }}
  valueFrom:
    secretKeyRef:
      name: {{ index . 1 }}
      key: {{ index . 2 }}
{{- end }}
{{- end }}
{{- with $v.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The enabled services behind the gateway, comma-separated (GATEWAY_SERVICES: /api/health reports their readiness). */}}
{{- define "medfolio.backendServices" -}}
{{- $names := list -}}
{{- range $app := splitList " " (include "medfolio.appNames" .) -}}
{{- if and (ne $app "gateway") (index $.Values $app).enabled -}}
{{- $names = append $names $app -}}
{{- end -}}
{{- end -}}
{{- join "," $names -}}
{{- end }}

{{/* Pod annotations: Prometheus discovery (optional) plus the ones from values. */}}
{{- define "medfolio.podAnnotations" -}}
{{- $annotations := dict -}}
{{- if .root.Values.global.metrics.podAnnotations -}}
{{- $_ := set $annotations "prometheus.io/scrape" "true" -}}
{{- $_ := set $annotations "prometheus.io/port" (include "medfolio.containerPort" .) -}}
{{- $_ := set $annotations "prometheus.io/path" "/metrics" -}}
{{- end -}}
{{- $own := .values.podAnnotations | default .root.Values.defaults.podAnnotations -}}
{{- range $k, $val := $own -}}
{{- $_ := set $annotations $k (toString $val) -}}
{{- end -}}
{{- with $annotations -}}
{{- toYaml . -}}
{{- end -}}
{{- end }}

{{/* Image pull secrets. */}}
{{- define "medfolio.imagePullSecrets" -}}
{{- with .Values.global.image.pullSecrets -}}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of the ServiceAccount of the migration Jobs. */}}
{{- define "medfolio.migrationsServiceAccount" -}}
{{- printf "%s-migrations" .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
