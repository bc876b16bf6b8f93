// The same lines in several blocks: a new sibling block written in the shape of the next one, and a
// block shown as its head over a marker that stands for its whole body (branch repeatz). Revealed by
// nginx and SCSS cases of sets z and p; the guards are a GitHub Actions workflow, a Gradle Kotlin DSL
// file and an Nx project.json.
import { describe, it } from 'vitest';
import { mergedEverywhere } from './judged.js';

const cases: Array<{ name: string; code: string; update: string; expected: string }> = [
  {
    // The new job copies the steps of `lint`, shown after it as its head over a marker (shown-head-body.ts).
    name: "a new job copying the next one goes before it; the job shown over a marker keeps its body",
    code: "name: ci\n\non:\n  push:\n    branches: [main]\n\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test\n\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm run lint\n\n  deploy:\n    needs: [test, lint]\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh\n",
    update: "jobs:\n  # ... test unchanged ...\n\n  typecheck:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm run typecheck\n\n  lint:\n    # ... unchanged ...\n\n  # ... rest unchanged ...\n",
    expected: "name: ci\n\non:\n  push:\n    branches: [main]\n\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test\n\n  typecheck:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm run typecheck\n\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm run lint\n\n  deploy:\n    needs: [test, lint]\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh\n",
  },
  {
    // A keyed block head (`staging {`) the original has nowhere is a new block (keyed-block-head.ts); main lost `release`.
    name: "a new build type copying the next one is new; the one a marker stands for stays",
    code: "android {\n    namespace = \"com.example.notes\"\n    compileSdk = 34\n\n    buildTypes {\n        debug {\n            isMinifyEnabled = false\n            applicationIdSuffix = \".debug\"\n        }\n        release {\n            isMinifyEnabled = true\n            isShrinkResources = true\n            proguardFiles(getDefaultProguardFile(\"proguard-android-optimize.txt\"), \"proguard-rules.pro\")\n        }\n    }\n}\n\ndependencies {\n    implementation(libs.androidx.core)\n}\n",
    update: "    buildTypes {\n        debug {\n            isMinifyEnabled = false\n            applicationIdSuffix = \".debug\"\n        }\n        staging {\n            isMinifyEnabled = true\n            isShrinkResources = true\n            applicationIdSuffix = \".staging\"\n        }\n        // ... release unchanged\n    }\n",
    expected: "android {\n    namespace = \"com.example.notes\"\n    compileSdk = 34\n\n    buildTypes {\n        debug {\n            isMinifyEnabled = false\n            applicationIdSuffix = \".debug\"\n        }\n        staging {\n            isMinifyEnabled = true\n            isShrinkResources = true\n            applicationIdSuffix = \".staging\"\n        }\n        release {\n            isMinifyEnabled = true\n            isShrinkResources = true\n            proguardFiles(getDefaultProguardFile(\"proguard-android-optimize.txt\"), \"proguard-rules.pro\")\n        }\n    }\n}\n\ndependencies {\n    implementation(libs.androidx.core)\n}\n",
  },
  {
    // Control: the shown closers already placed it on main.
    name: "a new JSON target copying its sibling goes between them (control: passes on main too)",
    code: "{\n  \"projects\": {\n    \"web\": {\n      \"targets\": {\n        \"build\": {\n          \"executor\": \"@nx/vite:build\",\n          \"outputs\": [\"{options.outputPath}\"]\n        },\n        \"test\": {\n          \"executor\": \"@nx/vite:test\",\n          \"outputs\": [\"{workspaceRoot}/coverage/web\"]\n        }\n      }\n    }\n  }\n}\n",
    update: "{\n  \"projects\": {\n    \"web\": {\n      \"targets\": {\n        \"build\": {\n          \"executor\": \"@nx/vite:build\",\n          \"outputs\": [\"{options.outputPath}\"]\n        },\n        \"e2e\": {\n          \"executor\": \"@nx/vite:test\",\n          \"outputs\": [\"{workspaceRoot}/coverage/web-e2e\"]\n        },\n        // ... test target unchanged ...\n      }\n    }\n  }\n}\n",
    expected: "{\n  \"projects\": {\n    \"web\": {\n      \"targets\": {\n        \"build\": {\n          \"executor\": \"@nx/vite:build\",\n          \"outputs\": [\"{options.outputPath}\"]\n        },\n        \"e2e\": {\n          \"executor\": \"@nx/vite:test\",\n          \"outputs\": [\"{workspaceRoot}/coverage/web-e2e\"]\n        },\n        \"test\": {\n          \"executor\": \"@nx/vite:test\",\n          \"outputs\": [\"{workspaceRoot}/coverage/web\"]\n        }\n      }\n    }\n  }\n}\n",
  },
];

describe('a new block beside the sibling it copies', () => {
  for (const c of cases) {
    it(c.name, () => mergedEverywhere(c.code, c.update, c.expected));
  }
});
