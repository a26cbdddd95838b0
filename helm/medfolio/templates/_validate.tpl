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
{{- $messages = append $messages (printf "%s.secretEnv: %s reads %s from a Secret, but neither %s.existingSecret nor global.appSecret.existingSecret is set." $app $app (join ", " $v.secretEnv) $app) }}
{{- end }}
{{- if and $v.autoscaling.enabled (gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- $messages = append $messages (printf "%s.autoscaling: minReplicas (%d) is greater than maxReplicas (%d)." $app (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- end }}
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
