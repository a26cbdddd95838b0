module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'documents:int', rootDir: __dirname };
