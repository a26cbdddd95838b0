// Who may import what (the architecture, enforced by @nx/enforce-module-boundaries).
// Tags live in each project.json. See docs/architecture.md "Who may import what".
module.exports = {
  enforceBuildableLibDependency: false,
  allow: [],
  depConstraints: [
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
    { sourceTag: 'type:server-lib', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'] },
    { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'] },
    { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'] },
    { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'] },
    { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['type:service', 'type:gateway', 'type:contracts', 'type:server-lib'] },
    { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['*'] },
    { sourceTag: 'platform:web', onlyDependOnLibsWithTags: ['platform:web', 'platform:shared'] },
  ],
};
