{{/*
validateValues: the rules that span several values (values.schema.json checks each value on its
own). Every broken rule adds one message saying what is wrong and how to fix it; the render fails
with all of them at once. templates/validate.yaml calls it.
*/}}
{{- define "medfolio.validateValues" -}}
{{- $root := . -}}
{{- $g := .Values.global -}}
{{- $messages := list -}}
{{- $enabled := list -}}
{{- $required := include "medfolio.requiredSecretEnv" $root | fromYaml -}}
{{- $optional := include "medfolio.optionalSecretEnv" $root | fromYaml -}}
{{- range $app := splitList " " (include "medfolio.appNames" $root) }}
{{- $v := index $root.Values $app }}
{{- if $v.enabled }}
{{- $enabled = append $enabled $app }}
{{- $ctx := dict "root" $root "app" $app "values" $v }}
{{- if $v.database.enabled }}
{{- if not (include "medfolio.databaseSecret" $ctx) }}
{{- $messages = append $messages (printf "%s.database: %s has a database but no Secret holds its URL. Set global.database.existingSecret (or %s.database.existingSecret) to an existing Secret whose key %q holds postgres://user:password@host:5432/database." $app $app $app (include "medfolio.databaseUrlKey" $ctx)) }}
{{- end }}
{{- if not (include "medfolio.databaseUrlKey" $ctx) }}
{{- $messages = append $messages (printf "%s.database: set global.database.urlKey (or %s.database.urlKey), the key of the database Secret that holds the URL." $app $app) }}
{{- end }}
{{- end }}
{{- if $v.s3.enabled }}
{{- if not $g.s3.bucket }}
{{- $messages = append $messages (printf "global.s3.bucket: %s uses S3 but no bucket is set." $app) }}
{{- end }}
{{- if not $g.s3.existingSecret }}
{{- $messages = append $messages (printf "global.s3.existingSecret: %s uses S3 but no Secret holds the access key. Set it to an existing Secret with the keys %q and %q." $app $g.s3.accessKeyIdKey $g.s3.secretAccessKeyKey) }}
{{- end }}
{{- end }}
{{- if and $v.secretEnv (not (include "medfolio.appSecret" $ctx)) }}
{{- $messages = append $messages (printf "%s.secretEnv: %s reads %s from a Secret, but neither %s.existingSecret nor global.appSecret.existingSecret is set. Create the Secret first (deploy/README.md, step 7) and name it there." $app $app (join ", " $v.secretEnv) $app) }}
{{- end }}
{{- /* Secrets the application cannot start without: from secretEnv or a valueFrom in extraEnv, never a plain value. */}}
{{- $extraNames := list }}
{{- range $v.extraEnv }}
{{- if .valueFrom }}
{{- $extraNames = append $extraNames .name }}
{{- end }}
{{- end }}
{{- range $variable, $what := (index $required $app | default dict) }}
{{- if hasKey $v.env $variable }}
{{- $messages = append $messages (printf "%s.env.%s: %s is a secret (%s): remove it from %s.env and keep it in %s.secretEnv, read from a Secret." $app $variable $variable $what $app $app) }}
{{- else if not (or (has $variable $v.secretEnv) (has $variable $extraNames)) }}
{{- $messages = append $messages (printf "%s.secretEnv: %s needs %s (%s) from a Secret: add %s to %s.secretEnv and the key %s to the Secret %q (deploy/README.md, step 7 shows how to generate it)." $app $app $variable $what $variable $app $variable (include "medfolio.appSecret" $ctx | default "<global.appSecret.existingSecret>")) }}
{{- end }}
{{- end }}
{{- range $variable := (index $optional $app | default list) }}
{{- if hasKey $v.env $variable }}
{{- $messages = append $messages (printf "%s.env.%s: %s is a secret: remove it from %s.env and add it to %s.secretEnv, with the key %s in the Secret it reads." $app $variable $variable $app $app $variable) }}
{{- end }}
{{- end }}
{{- if and $v.autoscaling.enabled (gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- $messages = append $messages (printf "%s.autoscaling: minReplicas (%d) is greater than maxReplicas (%d)." $app (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- end }}
{{- end }}
{{- end }}
{{- if or .Values.identity.enabled .Values.documents.enabled .Values.connections.enabled }}
{{- if not (include "medfolio.internalApiTokenSecret" $root) }}
{{- $messages = append $messages (printf "global.internalApiToken: the gateway, identity, documents and connections share INTERNAL_API_TOKEN (32+ characters, e.g. openssl rand -base64 32) from a Secret, but neither global.internalApiToken.existingSecret nor global.appSecret.existingSecret is set. Create the Secret with the key %q first (deploy/README.md, step 7)." $g.internalApiToken.key) }}
{{- end }}
{{- range $app := list "gateway" "identity" "documents" "connections" }}
{{- if and (index $root.Values $app).enabled (hasKey (index $root.Values $app).env "INTERNAL_API_TOKEN") }}
{{- $messages = append $messages (printf "%s.env.INTERNAL_API_TOKEN: INTERNAL_API_TOKEN is a secret: remove it from %s.env; the chart reads it from global.internalApiToken." $app $app) }}
{{- end }}
{{- end }}
{{- end }}
{{- if .Values.identity.enabled }}
{{- $i := .Values.identity }}
{{- if and .Values.networkPolicy.enabled .Values.gateway.enabled (not (has "gateway" $i.networkPolicy.allowFrom)) }}
{{- $messages = append $messages "identity.networkPolicy.allowFrom: keep gateway in the list: the gateway fetches the token keys (/.well-known/jwks.json) and streams profile pictures to identity over HTTP." }}
{{- end }}
{{- if not $i.s3.enabled }}
{{- $messages = append $messages "identity.s3.enabled: identity stores profile pictures and needs S3 in Kubernetes (its pods' filesystem is read-only and not shared): set identity.s3.enabled=true." }}
{{- end }}
{{- end }}
{{- if .Values.documents.enabled }}
{{- $d := .Values.documents }}
{{- if and .Values.networkPolicy.enabled .Values.gateway.enabled (not (has "gateway" $d.networkPolicy.allowFrom)) }}
{{- $messages = append $messages "documents.networkPolicy.allowFrom: keep gateway in the list: the gateway streams document uploads to documents over HTTP (/internal/documents)." }}
{{- end }}
{{- if not $d.s3.enabled }}
{{- $messages = append $messages "documents.s3.enabled: documents keeps the documents in S3 (its pods' filesystem is read-only and not shared): set documents.s3.enabled=true." }}
{{- end }}
{{- if and .Values.networkPolicy.enabled .Values.connections.enabled (not (has "connections" $d.networkPolicy.allowFrom)) }}
{{- $messages = append $messages "documents.networkPolicy.allowFrom: keep connections in the list: connections hands the records it fetched from hospitals to documents over HTTP (/internal/documents)." }}
{{- end }}
{{- end }}
{{- $gw := .Values.gateway }}
{{- if and $gw.enabled $gw.ingress.enabled $gw.ingress.maxBodySize }}
{{- $size := toString $gw.ingress.maxBodySize }}
{{- $unit := lower (regexFind "[kKmMgG]$" $size) }}
{{- $bytes := int64 (trimSuffix $unit (lower $size)) }}
{{- if eq $unit "k" }}{{ $bytes = mul $bytes 1024 }}{{ end }}
{{- if eq $unit "m" }}{{ $bytes = mul $bytes 1048576 }}{{ end }}
{{- if eq $unit "g" }}{{ $bytes = mul $bytes 1073741824 }}{{ end }}
{{- /* 0 switches the ingress limit off. */}}
{{- if and .Values.documents.enabled (gt $bytes 0) (le $bytes (int64 .Values.documents.uploads.maxFileBytes)) }}
{{- $messages = append $messages (printf "documents.uploads.maxFileBytes: documents accepts files of %d bytes but the Ingress refuses bodies over %s (%d bytes, multipart envelope included): raise gateway.ingress.maxBodySize (a request may carry documents.uploads.maxFilesPerUpload files) or lower documents.uploads.maxFileBytes." (int64 .Values.documents.uploads.maxFileBytes) $size $bytes) }}
{{- end }}
{{- end }}
{{- if not $enabled }}
{{- $messages = append $messages "No application is enabled: set gateway.enabled=true (and the services you need)." }}
{{- end }}
{{- if and (not $g.nats.url) (not $g.nats.existingSecret) }}
{{- $messages = append $messages "global.nats: set global.nats.url (e.g. nats://nats.nats.svc.cluster.local:4222) or global.nats.existingSecret." }}
{{- end }}
{{- if not $g.publicBaseUrl }}
{{- $messages = append $messages "global.publicBaseUrl: set the public URL of the web app, e.g. https://medfolio.example.com." }}
{{- end }}
{{- if and .Values.gateway.enabled .Values.gateway.ingress.enabled (not .Values.gateway.ingress.host) (not (urlParse (toString $g.publicBaseUrl)).hostname) }}
{{- $messages = append $messages "gateway.ingress.host: the Ingress needs a host: set gateway.ingress.host or a global.publicBaseUrl with a host name." }}
{{- end }}
{{- if $messages }}
{{- printf "\n\nmedfolio: invalid values:\n  - %s\n" (join "\n  - " $messages) | fail }}
{{- end }}
{{- end }}
