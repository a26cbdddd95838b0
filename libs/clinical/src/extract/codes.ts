// Code systems by C-CDA OID and by FHIR URL, named as in the model's Code.system.

const BY_OID: Record<string, string> = {
  '2.16.840.1.113883.6.88': 'RxNorm',
  '2.16.840.1.113883.6.96': 'SNOMED CT',
  '2.16.840.1.113883.6.90': 'ICD-10-CM',
  '2.16.840.1.113883.6.3': 'ICD-10',
  '2.16.840.1.113883.6.103': 'ICD-9-CM',
  '2.16.840.1.113883.6.1': 'LOINC',
  '2.16.840.1.113883.12.292': 'CVX',
  '2.16.840.1.113883.6.69': 'NDC',
  '2.16.840.1.113883.6.12': 'CPT',
  '2.16.840.1.113883.4.9': 'UNII',
};

const BY_URL: Record<string, string> = {
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
  'http://snomed.info/sct': 'SNOMED CT',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD-10-CM',
  'http://hl7.org/fhir/sid/icd-10': 'ICD-10',
  'http://hl7.org/fhir/sid/icd-9-cm': 'ICD-9-CM',
  'http://loinc.org': 'LOINC',
  'http://hl7.org/fhir/sid/cvx': 'CVX',
  'http://hl7.org/fhir/sid/ndc': 'NDC',
  'http://www.ama-assn.org/go/cpt': 'CPT',
  'http://fdasis.nlm.nih.gov': 'UNII',
};

/** Systems ranked for choosing among a concept's codings: the ones doctors' tools read first. */
export const PREFERRED_SYSTEMS = ['RxNorm', 'SNOMED CT', 'ICD-10-CM', 'ICD-10', 'LOINC', 'CVX', 'NDC'];

/** A system's name from its OID; unknown OIDs are kept as they are (still a code, still useful). */
export function systemFromOid(oid: string | null | undefined): string {
  if (!oid) return 'unknown';
  return BY_OID[oid] ?? oid;
}

export function systemFromUrl(url: string | undefined): string {
  if (!url) return 'unknown';
  return BY_URL[url.replace(/\/$/, '')] ?? url;
}

/** HL7 v3 TS ("20190402", "201904021030-0500") or FHIR dateTime to ISO 8601, kept as partial as the source. */
export function isoDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const fhir = /^\d{4}(-\d{2}){1,2}/.exec(value);
  if (fhir) return fhir[0];
  const v3 = /^(\d{4})(\d{2})?(\d{2})?/.exec(value);
  if (!v3) return undefined;
  return [v3[1], v3[2], v3[3]].filter(Boolean).join('-');
}

/** At most 200 characters, on one line, as SourceRef.quote wants. */
export function shortQuote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : flat.slice(0, 199) + '…';
}

/** True when an ISO (partial) date lies before today. */
export function isPast(iso: string | undefined, now = new Date()): boolean {
  if (!iso) return false;
  return iso < now.toISOString().slice(0, iso.length);
}

/** The object without its undefined fields: stored facts stay small and compare cleanly. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// Lab abbreviations kept in capitals when a shouting name is brought to ordinary case.
const LAB_ABBREVIATIONS = new Set(
  'ABO ALT AST ALP BMI BP BUN CBC CK CO2 CRP DNA ESR GFR HBSAG HCG HCT HCV HDL HGB HIV HLA HPV HR IGA IGE IGG IGM INR LDH LDL MCH MCHC MCV MPV NT O2 PSA PT PTT RBC RDW RNA RR RSV SARS T3 T4 TSH VLDL WBC'.split(
    ' ',
  ),
);
const LAB_SPECIAL: Record<string, string> = {
  a1c: 'A1c',
  ph: 'pH',
  egfr: 'eGFR',
  pco2: 'pCO2',
  po2: 'pO2',
  spo2: 'SpO2',
};

/**
 * A lab test's name as a doctor reads it. A LOINC fully specified name gives only its component
 * (the axes after it, property, time, system, scale and method, are cut): "CARBON DIOXIDE:SCNC:PT:
 * SER/PLAS:QN" -> "Carbon dioxide". A name in capitals is brought to sentence case, abbreviations
 * kept ("HEMOGLOBIN A1C/HEMOGLOBIN.TOTAL" -> "Hemoglobin A1c/Hemoglobin.total"); others are kept.
 */
export function readableLabName(name: string): string {
  let text = name.replace(/\s+/g, ' ').trim();
  const axes = text.split(':');
  if (axes.length >= 4 && axes[0]?.trim()) text = axes[0].trim();
  text = text.replace(/\^/g, ' ').replace(/\s+/g, ' ').trim();
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length > 3 && letters === letters.toUpperCase()) {
    text = text.toLowerCase().replace(/[a-z0-9]+/g, (word) => {
      const upper = word.toUpperCase();
      return LAB_SPECIAL[word] ?? (LAB_ABBREVIATIONS.has(upper) ? upper : word);
    });
    text = text.charAt(0).toUpperCase() + text.slice(1);
  }
  return text;
}

// SNOMED CT fully specified names end in a semantic tag; medicinal products start "Product containing".
const SEMANTIC_TAG =
  /\s*\((disorder|finding|substance|medicinal product|medicinal product form|clinical drug|product|procedure|situation|morphologic abnormality|observable entity|event|regime\/therapy|organism|body structure|physical object|qualifier value)\)\s*$/i;
const PRODUCT_CONTAINING = /^\s*product containing\s+(only\s+|precisely\s+)?/i;

/**
 * A code's display name as a person reads it: a SNOMED CT fully specified name without its semantic
 * tag, and a medicinal product by what it contains ("Product containing anastrozole (medicinal
 * product)" -> "anastrozole"; "Menopausal flushing (finding)" -> "Menopausal flushing").
 */
export function readableConceptName(name: string): string {
  const text = name.replace(SEMANTIC_TAG, '').replace(PRODUCT_CONTAINING, '').trim();
  return text || name.trim();
}
