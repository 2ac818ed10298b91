{{/* Names: <release>-cfdi unless the release already says cfdi. */}}
{{- define "cfdi.fullname" -}}
{{- if contains "cfdi" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-cfdi" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "cfdi.labels" -}}
app.kubernetes.io/name: cfdi
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* dict "root" $ "component" "api" */}}
{{- define "cfdi.selectorLabels" -}}
app.kubernetes.io/name: cfdi
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cfdi.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "cfdi.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "cfdi.fullname" .)) -}}
{{- end -}}

{{/*
The Secret's keys a component reads, comma-separated (dict "root" $ "component" "api"): least privilege, each pod
mounts only these. MASTER_KEY (and the retired keys during a rotation) and METRICS_TOKEN: API and worker; Redis: API, console and
portal; Stripe: the API; the PAC's password: whoever calls the PAC (API, worker, console's lookups; not the portal,
whose stamps the worker makes); the sandbox PAC and the migrations: their database.
*/}}
{{- define "cfdi.secretKeys" -}}
{{- $v := .root.Values -}}
{{- $keys := list "database-url" -}}
{{- if has .component (list "api" "console" "portal") -}}{{- $keys = append $keys "redis-url" -}}{{- end -}}
{{- if has .component (list "api" "worker") -}}{{- $keys = concat $keys (list "master-key" "metrics-token") -}}{{- end -}}
{{- if and (has .component (list "api" "worker")) (or $v.secrets.masterKeysPrevious $v.secrets.existingSecretHasMasterKeysPrevious) -}}{{- $keys = append $keys "master-keys-previous" -}}{{- end -}}
{{- if eq $v.config.storage.driver "s3" -}}{{- $keys = append $keys "s3-secret-access-key" -}}{{- end -}}
{{- if and $v.config.pac.url (ne .component "portal") -}}{{- $keys = append $keys "pac-password" -}}{{- end -}}
{{- if and (eq .component "api") $v.config.stripe.enabled -}}{{- $keys = concat $keys (list "stripe-secret-key" "stripe-webhook-secret") -}}{{- end -}}
{{- if eq .component "migrate" -}}{{- $keys = list "database-url" -}}{{- end -}}
{{- if eq .component "pac-sandbox" -}}{{- $keys = list "pac-sandbox-database-url" -}}{{- end -}}
{{- join "," $keys -}}
{{- end -}}

{{/* <NAME>_FILE for each key (database-url → DATABASE_URL_FILE). */}}
{{- define "cfdi.secretEnv" -}}
{{- range splitList "," (include "cfdi.secretKeys" .) }}
- name: {{ . | upper | replace "-" "_" }}_FILE
  value: /run/secrets/cfdi/{{ . }}
{{- end }}
{{- end -}}

{{- define "cfdi.secretVolume" -}}
- name: secrets
  secret:
    secretName: {{ include "cfdi.secretName" .root }}
    defaultMode: 0440
    items:
      {{- range splitList "," (include "cfdi.secretKeys" .) }}
      - { key: {{ . }}, path: {{ . }} }
      {{- end }}
{{- end -}}

{{- define "cfdi.secretMount" -}}
- { name: secrets, mountPath: /run/secrets/cfdi, readOnly: true }
{{- end -}}

{{/* The non-secret settings the API, worker and console share. */}}
{{- define "cfdi.platformEnv" -}}
{{- $c := .Values.config -}}
- { name: NODE_ENV, value: production }
- { name: LOG_LEVEL, value: {{ $c.logLevel | quote }} }
- { name: PUBLIC_BASE_URL, value: {{ $c.publicBaseUrl | quote }} }
- { name: PORTAL_URL, value: {{ $c.portalUrl | quote }} }
- { name: TEMPORAL_ADDRESS, value: {{ $c.temporal.address | quote }} }
- { name: TEMPORAL_NAMESPACE, value: {{ $c.temporal.namespace | quote }} }
- { name: TEMPORAL_TASK_QUEUE, value: {{ $c.temporal.taskQueue | quote }} }
- { name: STORAGE_DRIVER, value: {{ $c.storage.driver | quote }} }
{{- if eq $c.storage.driver "s3" }}
{{- with $c.storage.endpoint }}
- { name: S3_ENDPOINT, value: {{ . | quote }} }
{{- end }}
- { name: S3_REGION, value: {{ $c.storage.region | quote }} }
- { name: S3_BUCKET, value: {{ $c.storage.bucket | quote }} }
- { name: S3_ACCESS_KEY_ID, value: {{ required "config.storage.accessKeyId is required with the s3 driver" $c.storage.accessKeyId | quote }} }
{{- with $c.storage.prefix }}
- { name: S3_PREFIX, value: {{ . | quote }} }
{{- end }}
{{- else }}
- { name: STORAGE_DIR, value: /data/storage }
{{- end }}
{{- if .Values.pacSandbox.enabled }}
- { name: PAC_SANDBOX_URL, value: {{ printf "http://%s-pac-sandbox:%v" (include "cfdi.fullname" .) .Values.pacSandbox.port | quote }} }
{{- end }}
{{- with $c.pac.url }}
- { name: PAC_URL, value: {{ . | quote }} }
- { name: PAC_USERNAME, value: {{ required "config.pac.username is required with config.pac.url" $c.pac.username | quote }} }
{{- end }}
{{- range $name, $value := $c.extraEnv }}
- { name: {{ $name }}, value: {{ $value | quote }} }
{{- end }}
{{- end -}}

{{/* The master key's id, for the API and the worker. */}}
{{- define "cfdi.masterKeyEnv" -}}
- { name: MASTER_KEY_ID, value: {{ .Values.config.masterKeyId | quote }} }
{{- end -}}

{{/* OpenTelemetry export of the API, worker and sandbox PAC; nothing when tracing.otlpEndpoint is empty (off). */}}
{{- define "cfdi.tracingEnv" -}}
{{- $t := .Values.tracing -}}
{{- if $t.otlpEndpoint }}
- { name: OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ $t.otlpEndpoint | quote }} }
- { name: OTEL_EXPORTER_OTLP_PROTOCOL, value: {{ $t.protocol | quote }} }
- { name: OTEL_TRACES_SAMPLER, value: {{ $t.sampler | quote }} }
{{- with $t.samplerArg }}
- { name: OTEL_TRACES_SAMPLER_ARG, value: {{ . | quote }} }
{{- end }}
{{- with $t.resourceAttributes }}
- { name: OTEL_RESOURCE_ATTRIBUTES, value: {{ . | quote }} }
{{- end }}
{{- end }}
{{- end -}}

{{- define "cfdi.podSecurity" -}}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Annotation-based Prometheus scraping of a pod's /metrics on the given port. */}}
{{- define "cfdi.scrapeAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ . | quote }}
prometheus.io/path: /metrics
{{- end -}}
