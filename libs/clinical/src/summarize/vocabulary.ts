// The local engine's vocabulary. Written for this project by its authors from common clinical
// usage (no terminology file is copied: SNOMED CT, UMLS and similar sources may not be shipped).
// Kept small on purpose: it names what clinics abbreviate and what prose mentions; list items
// that are not in it are still read, as written.

/** What a heading opens. `other` sections are read as prose; `skip` sections are not read at all. */
export type BlockKind =
  | 'problems'
  | 'past'
  | 'surgical'
  | 'meds'
  | 'meds_stopped'
  | 'allergies'
  | 'immunizations'
  | 'family'
  | 'labs'
  | 'vitals'
  | 'care_team'
  | 'other'
  | 'skip';

/** Headings and their synonyms, normalised (lower case, "&" -> "and", no punctuation at the ends). */
const HEADINGS: Record<Exclude<BlockKind, never>, string[]> = {
  problems: [
    'problem list', 'problems', 'active problems', 'active problem list', 'current problems', 'current problem list',
    'medical problems', 'chronic problems', 'ongoing problems', 'diagnoses', 'diagnosis', 'discharge diagnoses',
    'discharge diagnosis', 'principal diagnosis', 'primary diagnosis', 'secondary diagnoses', 'secondary diagnosis',
    'final diagnoses', 'final diagnosis', 'admission diagnoses', 'admitting diagnosis', 'active diagnoses',
    'assessment', 'assessment and plan', 'assessment/plan', 'a/p', 'a and p', 'impression', 'impression and plan',
    'clinical impression', 'current medical conditions', 'current conditions', 'conditions', 'visit diagnoses',
    'encounter diagnoses', 'diagnoses this visit', 'reason for referral', 'problem', 'active medical problems',
    // Subheadings of a problem list (Cerner "Ongoing", Epic "Active").
    'ongoing', 'active', 'chronic', 'current',
  ],
  past: [
    'past medical history', 'pmh', 'pmhx', 'medical history', 'past history', 'past medical hx', 'medical hx',
    'resolved problems', 'inactive problems', 'past problems', 'historical problems', 'resolved problem list',
    'past medical and surgical history', 'previous medical history', 'prior medical history', 'history',
    'historical', 'resolved', 'inactive',
  ],
  surgical: [
    'past surgical history', 'psh', 'pshx', 'surgical history', 'surgical hx', 'procedures', 'procedure history',
    'procedures/surgical history', 'surgeries', 'past surgeries', 'prior surgeries', 'operations',
    'procedures performed', 'operations/procedures', 'surgical procedures',
  ],
  meds: [
    'medications', 'medication', 'meds', 'current medications', 'current meds', 'home medications', 'home meds',
    'discharge medications', 'discharge meds', 'current outpatient prescriptions', 'current outpatient medications',
    'outpatient medications', 'outpatient prescriptions', 'medications on admission', 'admission medications',
    'active medications', 'medication list', 'current medication list', 'prescriptions', 'medications at discharge',
    'continue taking these medications', 'continue these medications', 'start taking these medications',
    'new medications', 'change how you take these medications', 'changed medications', 'medications prior to admission',
    'prior to admission medications', 'current facility-administered medications', 'outpatient encounter medications',
  ],
  meds_stopped: [
    'stop taking these medications', 'discontinued medications', 'stopped medications', 'medications discontinued',
    'medications stopped', 'stop these medications', 'discontinue these medications', 'inactive medications',
  ],
  allergies: [
    'allergies', 'allergy', 'allergies/adrs', 'allergies/adverse reactions', 'allergies and adverse reactions',
    'adverse reactions', 'drug allergies', 'allergies/intolerances', 'allergies and intolerances', 'medication allergies',
    'allergy list', 'adrs', 'known allergies',
  ],
  immunizations: ['immunizations', 'immunization', 'immunization history', 'vaccinations', 'vaccines', 'vaccine history', 'immunizations administered', 'vaccines administered', 'immunizations given', 'vaccines given'],
  family: ['family history', 'fh', 'fhx', 'family hx', 'family medical history'],
  labs: [
    'labs', 'lab', 'results', 'lab results', 'labs/results', 'laboratory', 'laboratory results', 'laboratory data',
    'pertinent results', 'diagnostic results', 'lab data', 'recent labs', 'laboratory studies', 'test results',
  ],
  vitals: ['vitals', 'vital signs', 'vs', 'vital sign', 'discharge vitals', 'vital signs at discharge', 'most recent vitals', 'last vitals', 'admission vitals', 'current vitals', 'triage vitals'],
  care_team: ['care team', 'primary care provider', 'pcp', 'primary care physician', 'care team members', 'referring provider', 'referring physician', 'referring doctor'],
  other: [
    'history of present illness', 'hpi', 'subjective', 'interval history', 'hospital course', 'brief hospital course',
    'reason for visit', 'reason for admission', 'chief complaint', 'cc', 'summary', 'narrative', 'clinical summary',
    'ed course', 'emergency department course', 'reason for consultation', 'reason for consult',
  ],
  skip: [
    'review of systems', 'ros', 'social history', 'sh', 'social hx', 'shx', 'physical exam', 'physical examination',
    'exam', 'pe', 'objective', 'plan', 'follow-up', 'follow up', 'followup', 'instructions', 'discharge instructions',
    'patient instructions', 'disposition', 'diet', 'activity', 'code status', 'signature', 'signed', 'electronically signed',
    'patient information', 'demographics', 'reference range', 'imaging', 'radiology', 'return precautions', 'orders',
    'condition at discharge', 'discharge condition', 'general', 'heent', 'cardiovascular', 'respiratory', 'neuro',
    'psych', 'skin', 'abdomen', 'extremities', 'lungs', 'heart', 'tobacco use', 'alcohol use', 'goals', 'education',
    // A differential diagnosis is reasoning, not the patient's conditions (the impression follows it).
    'medical decision making', 'mdm', 'differential diagnosis', 'differential',
    'social', 'ecg', 'ekg', 'echo', 'echocardiogram', 'x-ray', 'cxr', 'ct', 'mri', 'arrival', 'attending', 'attending physician',
  ],
};

export const HEADING_KINDS: ReadonlyMap<string, BlockKind> = new Map(
  (Object.entries(HEADINGS) as [BlockKind, string[]][]).flatMap(([kind, names]) => names.map((name) => [name, kind] as const)),
);

/** Headings written as sentences in discharge paperwork ("STOP taking these medications:"). */
export const HEADING_PATTERNS: [RegExp, BlockKind][] = [
  [/^stop (taking )?(these|the following)\b/, 'meds_stopped'],
  [/^(do not take|discontinue)\b.*\bmedications?\b/, 'meds_stopped'],
  [/^(change|changed)\b.*\b(take|medications?)\b/, 'meds'],
  [/^(start|begin|continue)( taking)? (these|the following)\b/, 'meds'],
  [/\bmedications? (on|at|prior to) (admission|discharge)\b/, 'meds'],
  [/^((current|active|home|discharge|outpatient|new)\s+)+(medications?|meds|prescriptions)\b/, 'meds'],
  [/^(prescriptions|medications prescribed|prescribed medications)\b/, 'meds'],
  [/^allerg(y|ies)\b/, 'allergies'],
  [/^medications?\b/, 'meds'],
  [/^(last|latest|most recent|recent|pertinent|admission|discharge|today'?s)\s+(labs?|laboratory|results)\b/, 'labs'],
  [/^(last|latest|most recent|recent|admission|discharge|current)\s+(vitals?|vital signs)\b/, 'vitals'],
  [/^(immunizations?|vaccinations?|vaccines?)\b/, 'immunizations'],
  [/^(past|prior) surgical\b/, 'surgical'],
];

/** A condition's display name and the ways clinics write it. Short all-caps abbreviations match case-sensitively. */
export interface Concept {
  display: string;
  terms: string[];
  /** Abbreviations that only count in capitals (they are ordinary words or other things in lower case). */
  abbreviations?: string[];
}

export const CONDITIONS: Concept[] = [
  { display: 'Hypertension', terms: ['hypertension', 'essential hypertension', 'high blood pressure', 'htn', 'essential (primary) hypertension', 'benign essential hypertension'], abbreviations: ['HTN'] },
  { display: 'Type 2 diabetes mellitus', terms: ['type 2 diabetes', 'type 2 diabetes mellitus', 'type ii diabetes', 'type ii diabetes mellitus', 'diabetes mellitus type 2', 'diabetes mellitus, type 2', 'diabetes type 2', 'dm2', 'dm ii', 'dm type 2', 't2dm', 'niddm', 'type 2 dm', 'dmii', 'diabetes mellitus type ii'], abbreviations: ['DM2', 'T2DM', 'NIDDM'] },
  { display: 'Type 1 diabetes mellitus', terms: ['type 1 diabetes', 'type 1 diabetes mellitus', 'type i diabetes', 'diabetes mellitus type 1', 'dm1', 't1dm', 'iddm'], abbreviations: ['T1DM', 'IDDM'] },
  { display: 'Diabetes mellitus', terms: ['diabetes', 'diabetes mellitus'], abbreviations: ['DM'] },
  { display: 'Gestational diabetes', terms: ['gestational diabetes', 'gestational diabetes mellitus', 'gdm'], abbreviations: ['GDM'] },
  { display: 'Proteinuria', terms: ['proteinuria', 'albuminuria', 'microalbuminuria'] },
  { display: 'Bronchiolitis', terms: ['bronchiolitis', 'rsv bronchiolitis'] },
  { display: 'Otitis media', terms: ['otitis media', 'acute otitis media', 'aom', 'ear infection'], abbreviations: ['AOM'] },
  { display: 'Croup', terms: ['croup'] },
  { display: 'Gastroenteritis', terms: ['gastroenteritis', 'viral gastroenteritis'] },
  { display: 'Sinusitis', terms: ['sinusitis', 'acute sinusitis', 'acute bacterial sinusitis', 'chronic sinusitis'] },
  { display: 'Kidney stones', terms: ['nephrolithiasis', 'kidney stones', 'kidney stone', 'renal calculi'] },
  { display: 'Cardiomyopathy', terms: ['cardiomyopathy', 'ischemic cardiomyopathy', 'dilated cardiomyopathy', 'nonischemic cardiomyopathy', 'hypertrophic cardiomyopathy'] },
  { display: 'Prediabetes', terms: ['prediabetes', 'pre-diabetes', 'impaired fasting glucose'] },
  { display: 'Hyperlipidemia', terms: ['hyperlipidemia', 'hld', 'dyslipidemia', 'high cholesterol', 'hypercholesterolemia', 'mixed hyperlipidemia', 'pure hypercholesterolemia'], abbreviations: ['HLD'] },
  { display: 'Coronary artery disease', terms: ['coronary artery disease', 'cad', 'coronary disease', 'ischemic heart disease', 'atherosclerotic heart disease', 'ashd'], abbreviations: ['CAD', 'ASHD'] },
  { display: 'Heart failure', terms: ['heart failure', 'congestive heart failure', 'chf', 'hfref', 'hfpef', 'heart failure with reduced ejection fraction', 'heart failure with preserved ejection fraction', 'systolic heart failure', 'diastolic heart failure'], abbreviations: ['CHF', 'HFrEF', 'HFpEF'] },
  { display: 'Atrial fibrillation', terms: ['atrial fibrillation', 'afib', 'a-fib', 'a fib', 'paroxysmal atrial fibrillation', 'persistent atrial fibrillation', 'chronic atrial fibrillation'], abbreviations: ['AF', 'AFib'] },
  { display: 'Myocardial infarction', terms: ['myocardial infarction', 'heart attack', 'stemi', 'nstemi', 'acute myocardial infarction'], abbreviations: ['MI', 'STEMI', 'NSTEMI', 'AMI'] },
  { display: 'Stroke', terms: ['stroke', 'cerebrovascular accident', 'cva', 'ischemic stroke', 'cerebral infarction'], abbreviations: ['CVA'] },
  { display: 'Transient ischemic attack', terms: ['transient ischemic attack', 'tia'], abbreviations: ['TIA'] },
  { display: 'Deep vein thrombosis', terms: ['deep vein thrombosis', 'deep venous thrombosis', 'dvt'], abbreviations: ['DVT'] },
  { display: 'Pulmonary embolism', terms: ['pulmonary embolism', 'pulmonary embolus'], abbreviations: ['PE'] },
  { display: 'Peripheral artery disease', terms: ['peripheral artery disease', 'peripheral arterial disease', 'peripheral vascular disease', 'pad', 'pvd'], abbreviations: ['PAD', 'PVD'] },
  { display: 'Chronic obstructive pulmonary disease', terms: ['chronic obstructive pulmonary disease', 'copd', 'emphysema', 'chronic bronchitis'], abbreviations: ['COPD'] },
  { display: 'Asthma', terms: ['asthma', 'mild intermittent asthma', 'mild persistent asthma', 'moderate persistent asthma', 'reactive airway disease'] },
  { display: 'Obstructive sleep apnea', terms: ['obstructive sleep apnea', 'sleep apnea', 'osa'], abbreviations: ['OSA'] },
  { display: 'Gastroesophageal reflux disease', terms: ['gastroesophageal reflux disease', 'gerd', 'acid reflux', 'reflux', 'gastroesophageal reflux'], abbreviations: ['GERD'] },
  { display: 'Chronic kidney disease', terms: ['chronic kidney disease', 'ckd', 'chronic renal insufficiency', 'chronic renal failure', 'ckd stage 3', 'ckd stage 3a', 'ckd stage 3b', 'ckd stage 4', 'chronic kidney disease stage 3', 'chronic kidney disease, stage 3'], abbreviations: ['CKD'] },
  { display: 'Acute kidney injury', terms: ['acute kidney injury', 'aki', 'acute renal failure'], abbreviations: ['AKI', 'ARF'] },
  { display: 'Hypothyroidism', terms: ['hypothyroidism', 'hypothyroid', 'underactive thyroid'] },
  { display: 'Hyperthyroidism', terms: ['hyperthyroidism', 'graves disease'] },
  { display: 'Benign prostatic hyperplasia', terms: ['benign prostatic hyperplasia', 'benign prostatic hypertrophy', 'bph', 'enlarged prostate'], abbreviations: ['BPH'] },
  { display: 'Osteoarthritis', terms: ['osteoarthritis', 'degenerative joint disease', 'djd'], abbreviations: ['OA', 'DJD'] },
  { display: 'Rheumatoid arthritis', terms: ['rheumatoid arthritis'], abbreviations: ['RA'] },
  { display: 'Osteoporosis', terms: ['osteoporosis', 'osteopenia'] },
  { display: 'Gout', terms: ['gout', 'gouty arthritis'] },
  { display: 'Depression', terms: ['depression', 'major depressive disorder', 'mdd', 'depressive disorder'], abbreviations: ['MDD'] },
  { display: 'Anxiety', terms: ['anxiety', 'generalized anxiety disorder', 'gad', 'anxiety disorder'], abbreviations: ['GAD'] },
  { display: 'Bipolar disorder', terms: ['bipolar disorder', 'bipolar'] },
  { display: 'Schizophrenia', terms: ['schizophrenia'] },
  { display: 'Attention deficit hyperactivity disorder', terms: ['adhd', 'attention deficit hyperactivity disorder'], abbreviations: ['ADHD'] },
  { display: 'Dementia', terms: ['dementia', "alzheimer's disease", 'alzheimer disease', 'alzheimers'] },
  { display: 'Parkinson disease', terms: ["parkinson's disease", 'parkinson disease', 'parkinsons'] },
  { display: 'Epilepsy', terms: ['epilepsy', 'seizure disorder'] },
  { display: 'Migraine', terms: ['migraine', 'migraines', 'migraine headaches'] },
  { display: 'Multiple sclerosis', terms: ['multiple sclerosis'], abbreviations: ['MS'] },
  { display: 'Anemia', terms: ['anemia', 'iron deficiency anemia', 'anaemia'] },
  { display: 'Obesity', terms: ['obesity', 'morbid obesity', 'obese'] },
  { display: 'Cirrhosis', terms: ['cirrhosis', 'liver cirrhosis'] },
  { display: 'Hepatitis C', terms: ['hepatitis c', 'hcv', 'chronic hepatitis c'], abbreviations: ['HCV'] },
  { display: 'Hepatitis B', terms: ['hepatitis b', 'hbv'], abbreviations: ['HBV'] },
  { display: 'HIV infection', terms: ['hiv', 'human immunodeficiency virus'], abbreviations: ['HIV'] },
  { display: 'Pneumonia', terms: ['pneumonia', 'community-acquired pneumonia', 'community acquired pneumonia', 'cap'], abbreviations: ['CAP'] },
  { display: 'Urinary tract infection', terms: ['urinary tract infection', 'uti'], abbreviations: ['UTI'] },
  { display: 'Cellulitis', terms: ['cellulitis'] },
  { display: 'Sepsis', terms: ['sepsis'] },
  { display: 'Breast cancer', terms: ['breast cancer', 'breast carcinoma', 'carcinoma of the breast'] },
  { display: 'Prostate cancer', terms: ['prostate cancer', 'prostate carcinoma', 'adenocarcinoma of the prostate'] },
  { display: 'Colon cancer', terms: ['colon cancer', 'colorectal cancer', 'colon carcinoma'] },
  { display: 'Lung cancer', terms: ['lung cancer', 'non-small cell lung cancer', 'nsclc'] },
  { display: 'Irritable bowel syndrome', terms: ['irritable bowel syndrome', 'ibs'], abbreviations: ['IBS'] },
  { display: 'Crohn disease', terms: ["crohn's disease", 'crohn disease', 'crohns'] },
  { display: 'Ulcerative colitis', terms: ['ulcerative colitis'], abbreviations: ['UC'] },
  { display: 'Diverticulosis', terms: ['diverticulosis', 'diverticulitis'] },
  { display: 'Peptic ulcer disease', terms: ['peptic ulcer disease', 'pud', 'peptic ulcer'], abbreviations: ['PUD'] },
  { display: 'Allergic rhinitis', terms: ['allergic rhinitis', 'seasonal allergies', 'hay fever'] },
  { display: 'Psoriasis', terms: ['psoriasis'] },
  { display: 'Eczema', terms: ['eczema', 'atopic dermatitis'] },
  { display: 'Glaucoma', terms: ['glaucoma'] },
  { display: 'Cataract', terms: ['cataract', 'cataracts'] },
  { display: 'Chronic pain', terms: ['chronic pain', 'chronic low back pain', 'low back pain'] },
  { display: 'Tobacco use disorder', terms: ['tobacco use disorder', 'nicotine dependence', 'tobacco dependence'] },
  { display: 'Alcohol use disorder', terms: ['alcohol use disorder', 'alcohol abuse', 'alcohol dependence'] },
  { display: 'Vitamin D deficiency', terms: ['vitamin d deficiency'] },
  { display: 'Aortic stenosis', terms: ['aortic stenosis'] },
  { display: 'Pulmonary hypertension', terms: ['pulmonary hypertension'] },
  { display: 'Hyperkalemia', terms: ['hyperkalemia'] },
  { display: 'Hypokalemia', terms: ['hypokalemia'] },
  { display: 'Hyponatremia', terms: ['hyponatremia'] },
];

/** A general name and the specific ones it stands for when the record names exactly one of them ("diabetes" -> type 2). */
export const NARROWER: Record<string, string[]> = {
  'Diabetes mellitus': ['Type 2 diabetes mellitus', 'Type 1 diabetes mellitus'],
};

/** Generic drug names prose may mention; a medication list is read without needing them. */
export const DRUGS: string[] = [
  'acetaminophen', 'albuterol', 'alendronate', 'allopurinol', 'alprazolam', 'amiodarone', 'amitriptyline', 'amlodipine',
  'amoxicillin', 'amoxicillin-clavulanate', 'anastrozole', 'apixaban', 'aripiprazole', 'aspirin', 'atenolol', 'atorvastatin',
  'azithromycin', 'baclofen', 'budesonide', 'bumetanide', 'bupropion', 'buspirone', 'canagliflozin', 'captopril',
  'carvedilol', 'cefalexin', 'cephalexin', 'ceftriaxone', 'cetirizine', 'chlorthalidone', 'ciprofloxacin', 'citalopram',
  'clonazepam', 'clonidine', 'clopidogrel', 'cyclobenzaprine', 'dabigatran', 'dapagliflozin', 'diazepam', 'diclofenac',
  'digoxin', 'diltiazem', 'diphenhydramine', 'docusate', 'donepezil', 'doxycycline', 'dulaglutide', 'duloxetine',
  'empagliflozin', 'enalapril', 'enoxaparin', 'escitalopram', 'esomeprazole', 'ezetimibe', 'famotidine', 'fenofibrate',
  'ferrous sulfate', 'finasteride', 'fluoxetine', 'fluticasone', 'folic acid', 'furosemide', 'gabapentin', 'glimepiride',
  'glipizide', 'glyburide', 'haloperidol', 'heparin', 'hydralazine', 'hydrochlorothiazide', 'hydrocodone', 'hydroxychloroquine',
  'ibuprofen', 'insulin', 'insulin glargine', 'insulin lispro', 'insulin aspart', 'insulin detemir', 'irbesartan',
  'isosorbide mononitrate', 'ketorolac', 'labetalol', 'lamotrigine', 'lansoprazole', 'levetiracetam', 'levofloxacin',
  'levothyroxine', 'linagliptin', 'liraglutide', 'lisinopril', 'lithium', 'loratadine', 'lorazepam', 'losartan',
  'meloxicam', 'metformin', 'methotrexate', 'methylprednisolone', 'metoclopramide', 'metoprolol', 'metoprolol succinate',
  'metoprolol tartrate', 'metronidazole', 'mirtazapine', 'montelukast', 'morphine', 'naproxen', 'nifedipine',
  'nitrofurantoin', 'nitroglycerin', 'olanzapine', 'olmesartan', 'omeprazole', 'ondansetron', 'oxybutynin', 'oxycodone',
  'pantoprazole', 'paroxetine', 'penicillin', 'pioglitazone', 'potassium chloride', 'pravastatin', 'prednisone',
  'pregabalin', 'propranolol', 'quetiapine', 'ramipril', 'ranolazine', 'risperidone', 'rivaroxaban', 'rosuvastatin',
  'semaglutide', 'sertraline', 'simvastatin', 'sitagliptin', 'spironolactone', 'sulfamethoxazole-trimethoprim',
  'tamsulosin', 'tiotropium', 'topiramate', 'torsemide', 'tramadol', 'trazodone', 'valacyclovir', 'valsartan',
  'venlafaxine', 'verapamil', 'vitamin d', 'vitamin d3', 'cholecalciferol', 'vitamin b12', 'warfarin', 'zolpidem',
  'hydrocortisone', 'triamcinolone', 'clobetasol', 'mupirocin', 'ketoconazole', 'clotrimazole', 'fluconazole',
  'colchicine', 'prednisolone', 'dexamethasone', 'ipratropium', 'salmeterol', 'formoterol', 'sumatriptan', 'memantine',
  'calcium carbonate', 'magnesium oxide', 'multivitamin', 'nystatin', 'sucralfate', 'senna', 'polyethylene glycol',
];

/** Brand names to the generic, for matching the same drug across documents (display keeps what was written). */
export const BRANDS: Record<string, string> = {
  lipitor: 'atorvastatin', crestor: 'rosuvastatin', zocor: 'simvastatin', glucophage: 'metformin', zestril: 'lisinopril',
  prinivil: 'lisinopril', norvasc: 'amlodipine', lasix: 'furosemide', coumadin: 'warfarin', jantoven: 'warfarin',
  eliquis: 'apixaban', xarelto: 'rivaroxaban', plavix: 'clopidogrel', synthroid: 'levothyroxine', levoxyl: 'levothyroxine',
  toprol: 'metoprolol', 'toprol xl': 'metoprolol', lopressor: 'metoprolol', coreg: 'carvedilol', cozaar: 'losartan',
  diovan: 'valsartan', prilosec: 'omeprazole', protonix: 'pantoprazole', nexium: 'esomeprazole', pepcid: 'famotidine',
  zoloft: 'sertraline', lexapro: 'escitalopram', prozac: 'fluoxetine', wellbutrin: 'bupropion', neurontin: 'gabapentin',
  lyrica: 'pregabalin', flomax: 'tamsulosin', proscar: 'finasteride', januvia: 'sitagliptin', jardiance: 'empagliflozin',
  farxiga: 'dapagliflozin', ozempic: 'semaglutide', trulicity: 'dulaglutide', victoza: 'liraglutide', lantus: 'insulin glargine',
  basaglar: 'insulin glargine', humalog: 'insulin lispro', novolog: 'insulin aspart', levemir: 'insulin detemir',
  ventolin: 'albuterol', proair: 'albuterol', 'proair hfa': 'albuterol', singulair: 'montelukast', spiriva: 'tiotropium',
  flonase: 'fluticasone', advair: 'fluticasone-salmeterol', symbicort: 'budesonide-formoterol', tylenol: 'acetaminophen',
  motrin: 'ibuprofen', advil: 'ibuprofen', aleve: 'naproxen', zyloprim: 'allopurinol', aldactone: 'spironolactone',
  microzide: 'hydrochlorothiazide', hctz: 'hydrochlorothiazide', asa: 'aspirin', 'ecotrin': 'aspirin', keflex: 'cephalexin',
  augmentin: 'amoxicillin-clavulanate', bactrim: 'sulfamethoxazole-trimethoprim', cipro: 'ciprofloxacin', zithromax: 'azithromycin',
  'z-pak': 'azithromycin', xanax: 'alprazolam', ativan: 'lorazepam', klonopin: 'clonazepam', ambien: 'zolpidem',
  desyrel: 'trazodone', seroquel: 'quetiapine', abilify: 'aripiprazole', zyrtec: 'cetirizine', claritin: 'loratadine',
  benadryl: 'diphenhydramine', imdur: 'isosorbide mononitrate', nitrostat: 'nitroglycerin', lanoxin: 'digoxin',
  kcl: 'potassium chloride', 'k-dur': 'potassium chloride', 'klor-con': 'potassium chloride', mtx: 'methotrexate',
};

/** Allergen abbreviations and plain names to one form. */
export const ALLERGENS: Record<string, string> = {
  pcn: 'Penicillin', penicillins: 'Penicillin', 'penicillin g': 'Penicillin', sulfa: 'Sulfa drugs', 'sulfa drugs': 'Sulfa drugs',
  sulfonamides: 'Sulfa drugs', 'sulfonamide antibiotics': 'Sulfa drugs', asa: 'Aspirin', nsaids: 'NSAIDs', nsaid: 'NSAIDs',
  'iodinated contrast': 'Iodinated contrast', 'iv contrast': 'Iodinated contrast', 'contrast dye': 'Iodinated contrast',
  codeine: 'Codeine', morphine: 'Morphine', latex: 'Latex', peanuts: 'Peanut', peanut: 'Peanut', shellfish: 'Shellfish',
  'tree nuts': 'Tree nuts', eggs: 'Egg', egg: 'Egg', 'bee stings': 'Bee venom', 'bee venom': 'Bee venom',
};

/** Routes as written -> as shown. */
export const ROUTES: [RegExp, string][] = [
  [/\b(po|p\.o\.|by mouth|orally|oral)\b/i, 'by mouth'],
  [/\b(sc|sq|subq|subcut|subcutaneous(ly)?|under the skin)\b/i, 'subcutaneous'],
  [/\b(iv|intravenous(ly)?)\b/i, 'intravenous'],
  [/\b(im|intramuscular(ly)?)\b/i, 'intramuscular'],
  [/\b(inhaled|inhalation|inh|inhale|via inhaler|nebulized|neb)\b/i, 'inhaled'],
  [/\b(topical(ly)?|apply to (the )?(skin|affected area))\b/i, 'topical'],
  [/\b(sl|sublingual(ly)?|under the tongue)\b/i, 'sublingual'],
  [/\b(pr|rectal(ly)?|per rectum)\b/i, 'rectal'],
  [/\b(transdermal|patch)\b/i, 'transdermal'],
  [/\b(intranasal|nasal|each nostril|in nostril)\b/i, 'nasal'],
  [/\b(ophthalmic|ou|os|od|in (each|both|the left|the right) eyes?)\b/i, 'ophthalmic'],
];

/** Frequencies as written -> as shown; the first that matches wins, so longer forms come first. */
export const FREQUENCIES: [RegExp, string][] = [
  [/\b(qid|q\.i\.d\.|four times (a|per|each) day|four times daily|4 times (a|per|each) day|4 times daily|4x daily)\b/i, 'four times daily'],
  [/\b(tid|t\.i\.d\.|three times (a|per|each) day|three times daily|3 times (a|per|each) day|3 times daily|3x daily)\b/i, 'three times daily'],
  [/\b(bid|b\.i\.d\.|twice (a|per|each) day|twice daily|2 times (a|per|each) day|2 times daily|2x daily|every 12 hours|q12h|q 12h)\b/i, 'twice daily'],
  [/\bq\s?(\d{1,2})\s?(h|hr|hrs|hours)\b/i, 'every $1 hours'],
  [/\bevery (\d{1,2}) hours\b/i, 'every $1 hours'],
  [/\b(qhs|q\.h\.s\.|at bedtime|nightly|every night|hs|before bed(time)?)\b/i, 'at bedtime'],
  [/\b(qam|every morning|in the morning|each morning)\b/i, 'every morning'],
  [/\b(qpm|every evening|in the evening|each evening)\b/i, 'every evening'],
  [/\b(weekly|once (a|per|each) week|every week|q\s?week|qwk)\b/i, 'weekly'],
  [/\b(monthly|once (a|per|each) month|every month)\b/i, 'monthly'],
  [/\b(qd|q\.d\.|daily|once daily|once (a|per|each) day|every day|1 time daily|1 time (a|per|each) day)\b/i, 'daily'],
];

export const PRN = /\b(prn|p\.r\.n\.|as needed|when needed|if needed)\b/i;
